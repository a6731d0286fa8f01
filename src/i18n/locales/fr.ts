/** Français : les textes du formulaire ask_user. */

import type { Catalogue } from "../en.ts";

export const CATALOGUE: Catalogue = {
	// ── Le cadre du formulaire ─────────────────────────────────────────────
	"form.askedBy": "Demande de {asker}",
	"form.askedByTask": "Demande de {asker} · {task}",
	"form.reason": "Pourquoi : {reason}",
	"form.unnamedAsker": "sous-agent sans nom",
	"form.unnamedAskerPid": "sous-agent sans nom (PID {pid})",
	"form.timeLeft": "⏱ il reste {time}",
	"form.peekAsks": "Demande de {asker}",
	"form.peekWaits": "ask_user attend ({progress})",
	"form.peekShow": "{key} affiche le formulaire",
	"form.questionCount": { one: "{count} question", other: "{count} questions" },
	"form.answeredCount": "réponses : {answered} sur {total}",
	"form.optional": "(facultative)",
	"form.pressAgainToDismiss": "Appuyez de nouveau sur {key} pour abandonner le formulaire",
	"form.pressAgainToSubmit": {
		one: "{count} brouillon non enregistré – appuyez de nouveau sur {key} pour valider sans ce brouillon",
		other: "{count} brouillons non enregistrés – appuyez de nouveau sur {key} pour valider sans ces brouillons",
	},
	"form.moreAbove": "↑ {count} de plus · {key}",
	"form.moreBelow": "↓ {count} de plus · {key}",
	"form.paneLines": "lignes {from}–{to} sur {total} · {keys}",
	"form.peekKeyTaken":
		"La touche {key} est déjà attribuée dans vos raccourcis clavier ; c’est donc {fallback} qui replie le formulaire",

	// ── L’éditeur ──────────────────────────────────────────────────────────
	"editor.formNote":
		"Votre note sur l’ensemble du formulaire (p. ex. ce qu’il faut garder à l’esprit pour chaque réponse) :",
	"editor.chat":
		"Votre message, envoyé dans le chat à la place du formulaire (les réponses déjà données sont conservées) :",
	"editor.custom": "Votre réponse :",
	"editor.questionNote": "Votre note sur cette question :",
	"editor.optionNote": "Votre note sur « {option} » :",
	"editor.noExternal":
		"Aucun éditeur externe : définissez $VISUAL ou $EDITOR (p. ex. export EDITOR=vim), puis réessayez.",
	"editor.externalCouldNotRun": "Impossible de lancer l’éditeur externe ({program}) : {reason}. Le texte est inchangé.",
	"editor.externalExited": "L’éditeur externe ({program}) s’est terminé avec le code {status} : le texte est inchangé.",
	"editor.externalFailed": "Échec de l’éditeur externe : {reason}. Le texte est inchangé.",

	// ── Ce que dit le formulaire quand une touche ne peut pas agir ─────────
	"problem.requiredCannotSkip": "La question {header} est obligatoire et ne peut pas être ignorée",
	"problem.pickBeforeDone": "Choisissez au moins une option (ou saisissez la vôtre) avant « Terminé »",
	"problem.answerFirst": "Répondez d’abord à {names}",
	"problem.tooLong": {
		one: "Trop long : {count} caractère, la limite est de {limit}. Raccourcissez le texte, puis enregistrez de nouveau.",
		other:
			"Trop long : {count} caractères, la limite est de {limit}. Raccourcissez le texte, puis enregistrez de nouveau.",
	},

	// ── 📎 ──────────────────────────────────────────────────────────────────
	"attach.notHere": "Les fichiers accompagnent une réponse libre ou une note, pas un message pour le chat.",
	"attach.tooLarge": "{name} est trop volumineux pour être joint ({size}, la limite est de {limit}).",
	"attach.answerFull": "Au plus {limit} fichiers par réponse.",
	"attach.formFull": "Au plus {limit} fichiers par formulaire.",
	"attach.totalTooLarge": "Avec {name}, les fichiers du formulaire dépasseraient {limit}.",
	"attach.needsText": "Écrivez quelques mots avec les fichiers joints, ou retirez-les d’abord.",
	"attach.missing": "Fichier introuvable : {path}. Le chemin reste en texte.",
	"attach.directory": "{path} est un dossier, pas un fichier : le chemin reste en texte.",
	"attach.notFile": "{path} n’est pas un fichier ordinaire : le chemin reste en texte.",
	"attach.unreadable": "Impossible de lire {path} ({reason}) : le chemin reste en texte.",
	"attach.noClipboard":
		"Coller une image demande le presse-papiers de pi (pi 1.x ; sous Linux, un écran) : collez ou glissez plutôt le chemin du fichier.",
	"attach.clipboardEmpty":
		"Le presse-papiers ne contient pas d'image : copiez-en une, ou collez ou glissez le chemin d'un fichier.",
	"attach.clipboardFailed": "Impossible de lire le presse-papiers ({reason}) : collez plutôt le chemin du fichier.",
	"attach.clipboardNotImage":
		"L'image du presse-papiers n'est d'aucun de ces types : {types} : enregistrez-la dans l'un d'eux, puis collez son chemin.",

	// ── Une question ───────────────────────────────────────────────────────
	"question.typeSomething": "Saisir autre chose…",
	"question.recommended": "(recommandé)",
	"question.draft": "(brouillon)",
	"question.yourNoteOnQuestion": "✎ Votre note sur cette question :",
	"question.noteDraft": "✎ Note sur cette question (brouillon) : {key} pour l’ouvrir",
	"question.writeOwn": "Écrire votre propre réponse : {key}",
	"question.yourAnswer": "Votre réponse :",
	"question.yourDraft": "Votre brouillon, non enregistré :",
	"question.yourNote": "✎ Votre note :",
	"question.preview": "Aperçu :",
	"question.youDecide": "À vous de décider",
	"question.youDecideDetail": "Laisser le modèle décider : il choisit, dit lequel dans sa réponse et continue.",
	"question.youDecideRecommended": "Sa recommandation : {label}",

	// ── L’onglet Valider ───────────────────────────────────────────────────
	"review.tab": "Valider",
	"review.title": "Vérifiez vos réponses",
	"review.missing": "Il manque encore : {names}",
	"review.dropsDrafts": {
		one: "Prêt à valider, mais {count} brouillon non enregistré serait perdu : enregistrez-le sur sa question pour le conserver.",
		other:
			"Prêt à valider, mais {count} brouillons non enregistrés seraient perdus : enregistrez-les sur leurs questions pour les conserver.",
	},
	"review.ready": "Prêt à valider.",
	"review.submit": "Valider",
	"review.cancel": "Annuler (abandonner le formulaire)",
	"review.skipped": "ignorée",
	"review.requiredUnanswered": "pas encore de réponse (obligatoire)",
	"review.optionalUnanswered": "sans réponse (facultative : sera signalée comme ignorée)",
	"review.formNotePrefix": "✎ Note sur l’ensemble du formulaire : ",
	"review.addFormNote": "{key} : ajouter une note sur l’ensemble du formulaire",
	"review.noteDraftPrefix": "✎ brouillon de note non enregistré : ",
	"review.chatDraftPrefix": "💬 message non envoyé pour le chat : ",
	"review.draftPrefix": "✎ brouillon non enregistré : ",
	"review.optionNoteDraftPrefix": "✎ brouillon de note non enregistré sur {option} : ",

	// ── Touches : l’écran d’aide (`help`) et la ligne d’aide (`hint`, courte) ─
	"help.title": "Touches",
	"help.task": "Tâche : {task}",
	"help.typing":
		"Sur « Saisir autre chose… », chaque lettre, chiffre ou symbole tapé écrit votre réponse ; pour les touches lettres et chiffres ci-dessus, quittez d’abord cette ligne.",
	"help.join": " ; ",
	"key.unbound": "(non attribuée)",
	"key.move.help": "se déplacer entre les options (en boucle)",
	"key.move.hint": "déplacer",
	"key.focus.help":
		"choisir cette option (choix multiple : la cocher ou la décocher ; « Saisir autre chose… » : écrire) ; avec le réglage numberKeys sur « focus », seulement placer le curseur dessus",
	"key.focus.hint": "choisir",
	"key.choose.help": "choisir l’option sous le curseur ; sur « Valider » : valider",
	"key.choose.hint": "choisir",
	"key.toggle.help": "choix multiple : cocher ou décocher l’option sous le curseur",
	"key.toggle.hint": "cocher",
	"key.done.help": "choix multiple : terminer avec les options cochées",
	"key.done.hint": "terminer",
	"key.write.help": "sur « Saisir autre chose… » : écrire votre propre réponse",
	"key.write.hint": "écrire",
	"key.tabs.help": "question précédente / suivante (« Valider » compris)",
	"key.tabs.hint": "questions",
	"key.note.help": "ajouter une note à l’option sous le curseur (sur « Valider » : à l’ensemble du formulaire)",
	"key.note.hint": "note",
	"key.questionNote.help": "ajouter une note à la question (sur « Valider » : à l’ensemble du formulaire)",
	"key.questionNote.hint": "note (question)",
	"key.skip.help": "ignorer une question facultative",
	"key.skip.hint": "ignorer",
	"key.chat.help":
		"répondre plutôt par chat : écrire un message au modèle ; le formulaire se ferme et les réponses déjà données sont conservées",
	"key.chat.hint": "répondre par chat",
	"key.scroll.help": "faire défiler un texte long",
	"key.scroll.hint": "défiler",
	"key.help.help": "afficher cette aide",
	"key.help.hint": "aide",
	"key.peek.help":
		"replier : réduire le formulaire à une ligne pour lire la conversation au-dessus (faites défiler votre terminal)",
	"key.peek.hint": "replier",
	"key.unpeek.help":
		"replié : {keys} rouvrent le formulaire, avec chaque réponse, note et brouillon tels qu’ils étaient",
	"key.unpeek.hint": "afficher le formulaire",
	"key.dismiss.help": "sur le formulaire, appuyer deux fois pour l’abandonner",
	"key.dismiss.hint": "abandonner",
	"key.interrupt.help": "interrompre : arrêter l’exécution de l’agent",
	"key.interrupt.hint": "interrompre",
	"key.save.help": "dans l’éditeur : enregistrer",
	"key.save.hint": "enregistrer",
	"key.send.help": "dans un message pour le chat : envoyer",
	"key.send.hint": "envoyer",
	"key.newLine.help": "dans l’éditeur : nouvelle ligne",
	"key.newLine.hint": "nouvelle ligne",
	"key.external.help": "dans l’éditeur : modifier le texte dans votre $VISUAL / $EDITOR, comme dans l’éditeur de pi",
	"key.external.hint": "éditeur externe",
	"key.clearLine.help": "dans l’éditeur : effacer jusqu’au début de la ligne",
	"key.clearLine.hint": "effacer la ligne",
	"key.detach.help":
		"dans l’éditeur, au début du texte : retirer le dernier fichier joint (collez ou déposez le chemin d’un fichier pour le joindre)",
	"key.detach.hint": "retirer le fichier",
	"key.pasteImage.help": "dans l'éditeur : joindre l'image du presse-papiers, comme dans l'éditeur de pi",
	"key.pasteImage.hint": "coller l'image",
	"key.back.help": "dans l’éditeur : revenir aux options en gardant le texte saisi comme brouillon",
	"key.back.hint": "retour",
	"key.close.help": "dans cette aide : {keys} la ferment",
	"key.close.hint": "fermer",

	// ── La transcription ───────────────────────────────────────────────────
	"status.answered": "Répondu",
	"status.dismissed": "Abandonné",
	"status.aborted": "Interrompu",
	"status.no_ui": "Aucune interface pour poser la question",
	"status.timed_out": "Délai dépassé",
	"status.error": "Échec",
	"status.chat": "Réponse par chat à la place",
	"status.pending": "En attente de l’utilisateur",
	"outcome.answered": "répondue",
	"outcome.skipped": "ignorée",
	"outcome.unanswered": "sans réponse",
	"outcome.delegated": "laissé au modèle",
	"transcript.answeredElsewhere": "Répondu ailleurs, via {source}",
	"transcript.noteMark": "(+note)",
	"transcript.draftMark": "(+brouillon)",
	"transcript.formNote": "✎ Note sur l’ensemble du formulaire : {text}",
	"transcript.chatDraft": "💬 Message pour le chat, brouillon, non envoyé : {text}",
	"transcript.formNoteDraft": "✎ Note sur l’ensemble du formulaire, brouillon, non enregistrée : {text}",
	"transcript.notePrefix": "note : ",
	"transcript.noteDraftPrefix": "brouillon de note, non enregistré : ",
	"transcript.wrote": "réponse libre :",
	"transcript.draftPrefix": "brouillon, non enregistré : ",
	"transcript.failed": "échec de ask_user",

	// ── Les boîtes de dialogue (hôtes RPC) : lignes et titres ──────────────
	"walker.previews": "👁 Voir les aperçus des options…",
	"walker.freeText": "✎ Saisir autre chose…",
	"walker.youDecide": "🤖 À vous de décider (laisser le modèle choisir)",
	"walker.note": "✎ Ajouter une note…",
	"walker.editNote": "✎ Modifier la note…",
	"walker.skip": "↷ Ignorer",
	"walker.done": "✓ Terminé",
	"walker.next": "→ Suivant (garder cette réponse)",
	"walker.back": "← Retour",
	"walker.submit": "✓ Valider",
	"walker.formNote": "✎ Ajouter une note sur l’ensemble du formulaire…",
	"walker.editFormNote": "✎ Modifier la note sur l’ensemble du formulaire…",
	"walker.chat": "💬 Répondre plutôt par chat…",
	"walker.cancel": "✗ Annuler",
	"walker.freeTextYours": "✎ Saisir autre chose… (votre réponse : {text})",
	"walker.selected": "Sélection : {answer}",
	"walker.pickThenDone": "Choisissez-en une ou plusieurs, puis « Terminé ».",
	"walker.yourAnswer": "Votre réponse : {answer}",
	"walker.asks": "Demande de {asker}",
	"walker.askedBy": "demande de {asker}",
	"walker.chatTitle":
		"Votre message pour le chat, à la place du formulaire (les réponses déjà données sont conservées)",
	"walker.formNoteTitle": "Une note sur l’ensemble du formulaire",
	"walker.answerTo": "Votre réponse à : {question}",
	"walker.noteOn": "Une note sur : {question}",
	"walker.previewsTitle": "Aperçus des options pour : {question}",
	"walker.previewsReadOnly":
		"En lecture seule : rien de ce qui est tapé ici n’est conservé. Fermez-le pour revenir à la question.",
	"walker.skipped": "(ignorée)",
	"walker.noAnswer": "(aucune réponse)",
	"walker.noteLine": "note : {text}",
	"walker.formNoteLine": "Note sur l’ensemble du formulaire : {text}",
	"walker.unsavedOverLimit": {
		one: "⚠ {count} texte trop long n’a pas été enregistré ; « Valider » l’écarte.",
		other: "⚠ {count} textes trop longs n’ont pas été enregistrés ; « Valider » les écarte.",
	},
	"walker.position": "{index} sur {total}",
	"walker.optional": "facultative",
	"walker.choiceOnly":
		"ⓘ Cet hôte n’affiche pas de zone de texte : répondez en choisissant une ligne (les lignes de saisie libre, de notes et d’aperçus sont masquées).",
	"walker.stray": "⚠ Cette réponse ne correspond à aucune ligne : choisissez-en une.",
	"walker.pathAsText": "Validez-le sans le modifier pour le donner comme réponse, en texte.",
	"walker.needsText":
		"Écrivez quelques mots avec les fichiers joints ; pour répondre sans eux, annulez cet éditeur et choisissez une option.",
	"walker.blank": "ⓘ Le texte est resté vide : rien n’est enregistré pour lui.",
	"walker.notText": "⚠ Cette réponse n’était pas du texte : écrivez-la à nouveau.",
	"walker.closed": "ask_user : ces questions sont closes ; une réponse dans la boîte de dialogue ouverte sera ignorée.",
	"elicitation.ownAnswer": "{header} : votre propre réponse",
	"elicitation.addedToChosen": "S’ajoute aux options choisies.",
	"elicitation.insteadOfOption": "Au lieu de choisir une option.",
	"elicitation.note": "{header} : une note",
	"elicitation.asks": {
		one: "{asker} pose {count} question : {questions}",
		other: "{asker} pose {count} questions : {questions}",
	},
	"elicitation.agentAsks": {
		one: "L’agent pose {count} question : {questions}",
		other: "L’agent pose {count} questions : {questions}",
	},

	// ── Attirer l’attention de l’utilisateur ───────────────────────────────
	"attention.waiting": { one: "{count} question en attente", other: "{count} questions en attente" },
	"attention.waitingAskedBy": {
		one: "{count} question en attente – posée par {asker}",
		other: "{count} questions en attente – posées par {asker}",
	},
	"attention.title": { one: "❓ {count} question · {title}", other: "❓ {count} questions · {title}" },

	// ── Avertissements au démarrage ────────────────────────────────────────
	"warning.settingsNotJson":
		"Réglages ask_user : {file} n’est pas un JSON valide ({reason}) : aucun réglage n’est appliqué. Corrigez le JSON ou supprimez le fichier.",
	"warning.settingsNotObject":
		"Réglages ask_user : {file} doit contenir un objet JSON ({example}) : aucun réglage n’est appliqué.",
	"warning.settingsUnreadable":
		"Réglages ask_user : impossible de lire {file} ({reason}) : aucun réglage n’est appliqué.",
	"warning.settingsUnknownKey":
		"Réglages ask_user : {file} : la clé inconnue {key} est ignorée. Clés connues : {keys}.",
	"warning.settingsBadValue":
		"Réglages ask_user : {source} doit être {takes} (valeur trouvée : {found}) ; la valeur est ignorée.",
	"takes.oneOf": "l’une des valeurs {values}",
	"takes.text": "une chaîne non vide d’au plus {max} caractères",
	"takes.seconds": "0 (aucun) ou un nombre de secondes entre 1 et {max}",
	"takes.boolean": "true ou false",
	"takes.lines": "une liste d’au plus {max} chaînes non vides",
	"takes.peekKey":
		"une lettre, ctrl+ ou alt+ suivi d’une lettre, ou une touche de f1 à f12, qui ne soit pas déjà utilisée par le formulaire (ce qui exclut {taken})",
	"warning.projectSteering":
		"Réglages d'ask_user : {file} définit {keys}, qui entrent dans le prompt du modèle : ils ne s'appliquent que dans un projet auquel vous faites confiance, et pi ne fait pas confiance à celui-ci sur votre décision. Le texte par défaut est utilisé. Pour les utiliser, donnez au projet ses propres réglages pi (un .pi/settings.json), faites-lui confiance et relancez pi.",
	"warning.projectEnding":
		"Réglages d'ask_user : {file} définit {keys}, qui permet à un formulaire de se terminer avant votre réponse, le modèle continuant alors sans vous : il ne s'applique que dans un projet auquel vous faites confiance, et pi ne fait pas confiance à celui-ci sur votre décision. Votre propre réglage s'applique. Pour l'utiliser, donnez au projet ses propres réglages pi (un .pi/settings.json), faites-lui confiance et relancez pi.",
	"warning.noChannel": "ask_user : les sous-agents ne peuvent pas poser de questions via cette session ({reason})",
	"form.restored": "Restauré : vos réponses d'avant l'arrêt de pi sont de retour ; les envoyer les transmet au modèle",
	"form.reopened": "Rouvert : l'appel est terminé, votre réponse sera donc envoyée au modèle sous forme de message",
	"kept.title": "Formulaires de cette session — {key} rouvre",
	"kept.dropTitle": "Quel formulaire abandonner ?",
	"kept.none": "Aucun formulaire de cette session n'attend de réponse",
	"kept.open": "interrompu",
	"kept.dismissed": "fermé",
	"kept.aborted": "arrêté",
	"kept.timed_out": "délai dépassé",
	"kept.error": "en échec",
	"kept.chat": "répondu dans le chat",
	"kept.answered": "répondu {when}",
	"kept.unchanged": "Rien n'a changé : le modèle n'a pas été prévenu à nouveau",
	"form.revising":
		"Révision : vos réponses telles que vous les avez envoyées ; les renvoyer dit au modèle ce qui a changé",
	"warning.keptDropped": "ask_user : un formulaire enregistré a été abandonné ({reason})",
	"warning.keptNotSaved":
		"ask_user : ce formulaire ne peut pas être enregistré dans {file} ({reason}) ; il reste ouvert, mais ce que vous tapez ne survivra pas à la fin de pi",
	"takes.address": "une adresse IP de cette machine, par exemple 127.0.0.1 ou 192.168.1.20",
	"takes.port": "un port de 0 à 65535 (0 : n'importe quel port libre)",
	"warning.projectUserOnly":
		"réglages d'ask_user : {file} définit {keys}, qui ouvrent cette machine au réseau : seuls votre propre fichier de réglages, une option ou une variable peuvent les définir. Ignoré.",
	"web.link": "🌐 Répondre dans un navigateur : {url}",
	"web.answered": "✓ Envoyé : l'agent a vos réponses. Vous pouvez fermer cette page.",
	"web.closed": "Ce formulaire a été fermé dans le terminal : plus rien à répondre ici.",
	"web.notSent": "Non envoyé : {error}",
	"web.alreadyAnswered": "Ce formulaire a déjà reçu une réponse ou a été fermé : vos réponses n'ont pas été envoyées.",
	"web.qr": "Scannez avec un téléphone pour répondre dans son navigateur :",
	"web.qrMissing":
		"Pas de code QR : le paquet facultatif uqr est absent (lancez npm install dans le dossier de cette extension)",
	"web.loopback":
		"Pour un téléphone : cette page n’écoute que sur cette machine. Donnez à {setting}, dans votre {file}, l’adresse LAN ou tailnet de cette machine (ou {flag}), et son code QR s’affiche ici.",
	"web.needsScript":
		"Cette page a besoin de JavaScript pour afficher le formulaire : activez-le, ou répondez dans le terminal.",
	"web.attach": "📎 Joindre une photo ou un fichier",
	"web.removeFile": "Retirer {name}",
	"web.fileTooLarge": "{name} est trop volumineux pour être joint ({size}, la limite est {limit}).",
	"web.answerFull": "Au plus {limit} fichiers par réponse.",
	"web.formFull": "Au plus {limit} fichiers par formulaire.",
	"web.totalTooLarge": "Avec {name}, les fichiers du formulaire dépasseraient {limit}.",
	"web.fileUnreadable": "Impossible de lire {name} : choisissez-le de nouveau.",
	"web.submitTooLarge": "Non envoyé : les fichiers sont trop volumineux, au plus {limit} en tout.",
	"warning.webCannotListen":
		"ask_user : la page du navigateur n'a pas pu écouter sur {address}:{port} ({reason}) ; répondez dans le terminal.",
};
