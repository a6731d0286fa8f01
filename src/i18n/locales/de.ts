/** Deutsch: die Texte des ask_user-Formulars. */

import type { Catalogue } from "../en.ts";

export const CATALOGUE: Catalogue = {
	// ── Der Rahmen des Formulars ───────────────────────────────────────────
	"form.askedBy": "Anfrage von {asker}",
	"form.askedByTask": "Anfrage von {asker} · {task}",
	"form.reason": "Warum: {reason}",
	"form.unnamedAsker": "Subagent ohne Namen",
	"form.unnamedAskerPid": "Subagent ohne Namen (PID {pid})",
	"form.timeLeft": "⏱ noch {time}",
	"form.peekAsks": "{asker} fragt",
	"form.peekWaits": "ask_user wartet ({progress})",
	"form.peekShow": "{key} zeigt das Formular an",
	"form.questionCount": { one: "{count} Frage", other: "{count} Fragen" },
	"form.answeredCount": "{answered} von {total} beantwortet",
	"form.optional": "(optional)",
	"form.pressAgainToDismiss": "Drücke erneut {key}, um das Formular zu verwerfen",
	"form.pressAgainToSubmit": {
		one: "{count} ungespeicherter Entwurf – drücke erneut {key}, um ohne ihn abzusenden",
		other: "{count} ungespeicherte Entwürfe – drücke erneut {key}, um ohne sie abzusenden",
	},
	"form.moreAbove": "↑ {count} weitere · {key}",
	"form.moreBelow": "↓ {count} weitere · {key}",
	"form.paneLines": "Zeilen {from}–{to} von {total} · {keys}",
	"form.peekKeyTaken":
		"{key} ist in deiner Tastenbelegung bereits vergeben, deshalb klappt {fallback} das Formular ein",

	// ── Der Editor ─────────────────────────────────────────────────────────
	"editor.formNote": "Deine Notiz zum gesamten Formular (z. B. was bei jeder Antwort zu beachten ist):",
	"editor.chat":
		"Deine Nachricht, die statt des Formulars in den Chat geht (die bisherigen Antworten bleiben erhalten):",
	"editor.custom": "Deine Antwort:",
	"editor.questionNote": "Deine Notiz zu dieser Frage:",
	"editor.optionNote": "Deine Notiz zu „{option}“:",
	"editor.noExternal":
		"Kein externer Editor: Setze $VISUAL oder $EDITOR (z. B. export EDITOR=vim) und versuche es dann erneut.",
	"editor.externalCouldNotRun":
		"Der externe Editor ({program}) konnte nicht gestartet werden: {reason}. Der Text bleibt unverändert.",
	"editor.externalExited":
		"Der externe Editor ({program}) wurde mit Status {status} beendet: Der Text bleibt unverändert.",
	"editor.externalFailed": "Der externe Editor ist fehlgeschlagen: {reason}. Der Text bleibt unverändert.",

	// ── Was das Formular sagt, wenn eine Taste nicht tun kann, was sie soll ──
	"problem.requiredCannotSkip": "{header} ist erforderlich und kann nicht übersprungen werden",
	"problem.pickBeforeDone": "Wähle mindestens eine Option (oder gib eine eigene ein), bevor du „Fertig“ wählst",
	"problem.answerFirst": "Beantworte zuerst {names}",
	"problem.tooLong": {
		one: "Zu lang: {count} Zeichen, das Limit liegt bei {limit}. Kürze den Text und speichere dann erneut.",
		other: "Zu lang: {count} Zeichen, das Limit liegt bei {limit}. Kürze den Text und speichere dann erneut.",
	},

	// ── 📎 ──────────────────────────────────────────────────────────────────
	"attach.notHere": "Dateien gehören zu einer eigenen Antwort oder einer Notiz, nicht zu einer Nachricht im Chat.",
	"attach.tooLarge": "{name} ist zu groß zum Anhängen ({size}, das Limit liegt bei {limit}).",
	"attach.answerFull": "Höchstens {limit} Dateien pro Antwort.",
	"attach.formFull": "Höchstens {limit} Dateien pro Formular.",
	"attach.totalTooLarge": "Mit {name} wären die Dateien des Formulars größer als {limit}.",
	"attach.needsText": "Schreib ein paar Worte zu den angehängten Dateien oder entferne sie zuerst.",
	"attach.missing": "Keine solche Datei: {path}. Der Pfad bleibt als Text stehen.",
	"attach.directory": "{path} ist ein Ordner, keine Datei: der Pfad bleibt als Text stehen.",
	"attach.notFile": "{path} ist keine gewöhnliche Datei: der Pfad bleibt als Text stehen.",
	"attach.unreadable": "{path} kann nicht gelesen werden ({reason}): der Pfad bleibt als Text stehen.",
	"attach.noClipboard":
		"Ein Bild einfügen braucht pis Zwischenablage (pi 1.x; unter Linux ein Display): füge stattdessen den Pfad der Datei ein oder zieh sie hinein.",
	"attach.clipboardEmpty": "Die Zwischenablage enthält kein Bild: kopiere eins, oder füge den Pfad einer Datei ein.",
	"attach.clipboardFailed": "Die Zwischenablage ist nicht lesbar ({reason}): füge stattdessen den Pfad der Datei ein.",
	"attach.clipboardNotImage":
		"Das Bild der Zwischenablage ist keins von {types}: speichere es als eins und füge seinen Pfad ein.",

	// ── Eine Frage ─────────────────────────────────────────────────────────
	"question.typeSomething": "Etwas eingeben…",
	"question.recommended": "(empfohlen)",
	"question.draft": "(Entwurf)",
	"question.yourNoteOnQuestion": "✎ Deine Notiz zu dieser Frage:",
	"question.noteDraft": "✎ Notiz zu dieser Frage (Entwurf): {key} zum Öffnen",
	"question.writeOwn": "Eigene Antwort schreiben: {key}",
	"question.yourAnswer": "Deine Antwort:",
	"question.yourDraft": "Dein Entwurf, nicht gespeichert:",
	"question.yourNote": "✎ Deine Notiz:",
	"question.preview": "Vorschau:",
	"question.youDecide": "Entscheide du",
	"question.youDecideDetail":
		"Dem Modell überlassen: Es wählt, sagt in seiner Antwort, was es gewählt hat, und macht weiter.",
	"question.youDecideRecommended": "Seine Empfehlung: {label}",

	// ── Der Tab „Absenden“ ─────────────────────────────────────────────────
	"review.tab": "Absenden",
	"review.title": "Antworten überprüfen",
	"review.missing": "Noch offen: {names}",
	"review.dropsDrafts": {
		one: "Bereit zum Absenden, aber {count} ungespeicherter Entwurf ginge verloren: Speichere ihn bei seiner Frage, um ihn zu behalten.",
		other:
			"Bereit zum Absenden, aber {count} ungespeicherte Entwürfe gingen verloren: Speichere sie bei ihren Fragen, um sie zu behalten.",
	},
	"review.ready": "Bereit zum Absenden.",
	"review.submit": "Absenden",
	"review.cancel": "Abbrechen (Formular verwerfen)",
	"review.skipped": "übersprungen",
	"review.requiredUnanswered": "noch nicht beantwortet (erforderlich)",
	"review.optionalUnanswered": "nicht beantwortet (optional: wird als übersprungen gemeldet)",
	"review.formNotePrefix": "✎ Notiz zum gesamten Formular: ",
	"review.addFormNote": "{key}: Notiz zum gesamten Formular hinzufügen",
	"review.noteDraftPrefix": "✎ ungespeicherter Notizentwurf: ",
	"review.chatDraftPrefix": "💬 nicht gesendete Nachricht für den Chat: ",
	"review.draftPrefix": "✎ ungespeicherter Entwurf: ",
	"review.optionNoteDraftPrefix": "✎ ungespeicherter Notizentwurf zu {option}: ",

	// ── Tasten: die Hilfeseite (`help`) und die Hinweiszeile (`hint`, kurz) ──
	"help.title": "Tasten",
	"help.task": "Aufgabe: {task}",
	"help.typing":
		"Auf „Etwas eingeben…“ schreibt jeder getippte Buchstabe, jede Ziffer und jedes Zeichen deine Antwort; für die Buchstaben- und Zifferntasten oben verlasse zuerst die Zeile.",
	"help.join": "; ",
	"key.unbound": "(nicht belegt)",
	"key.move.help": "zwischen den Optionen wechseln (am Ende geht es von vorn weiter)",
	"key.move.hint": "bewegen",
	"key.focus.help":
		"diese Option wählen (Mehrfachauswahl: an- oder abwählen; „Etwas eingeben…“: schreiben); mit der Einstellung numberKeys auf „focus“ nur den Fokus darauf setzen",
	"key.focus.hint": "wählen",
	"key.choose.help": "die markierte Option wählen; auf „Absenden“: absenden",
	"key.choose.hint": "wählen",
	"key.toggle.help": "Mehrfachauswahl: die markierte Option an- oder abwählen",
	"key.toggle.hint": "umschalten",
	"key.done.help": "Mehrfachauswahl: die Auswahl abschließen",
	"key.done.hint": "fertig",
	"key.write.help": "auf „Etwas eingeben…“: eine eigene Antwort schreiben",
	"key.write.hint": "schreiben",
	"key.tabs.help": "vorherige / nächste Frage (einschließlich „Absenden“)",
	"key.tabs.hint": "Fragen",
	"key.note.help": "der markierten Option eine Notiz hinzufügen (auf „Absenden“: dem gesamten Formular)",
	"key.note.hint": "Notiz",
	"key.questionNote.help": "der Frage eine Notiz hinzufügen (auf „Absenden“: dem gesamten Formular)",
	"key.questionNote.hint": "Fragennotiz",
	"key.skip.help": "eine optionale Frage überspringen",
	"key.skip.hint": "überspringen",
	"key.chat.help":
		"stattdessen im Chat antworten: eine Nachricht an das Modell schreiben; das Formular schließt sich, deine bisherigen Antworten bleiben erhalten",
	"key.chat.hint": "im Chat antworten",
	"key.scroll.help": "langen Text scrollen",
	"key.scroll.hint": "scrollen",
	"key.help.help": "diese Hilfe anzeigen",
	"key.help.hint": "Hilfe",
	"key.peek.help":
		"einklappen: das Formular auf eine Zeile reduzieren, um die Unterhaltung darüber zu lesen (im Terminal scrollen)",
	"key.peek.hint": "einklappen",
	"key.unpeek.help":
		"eingeklappt: {keys} holen das Formular zurück, mit allen Antworten, Notizen und Entwürfen wie zuvor",
	"key.unpeek.hint": "Formular anzeigen",
	"key.dismiss.help": "im Formular zweimal drücken, um es zu verwerfen",
	"key.dismiss.hint": "verwerfen",
	"key.interrupt.help": "unterbrechen: den Lauf des Agenten stoppen",
	"key.interrupt.hint": "unterbrechen",
	"key.save.help": "im Editor: speichern",
	"key.save.hint": "speichern",
	"key.send.help": "in einer Chat-Nachricht: senden",
	"key.send.hint": "senden",
	"key.newLine.help": "im Editor: neue Zeile",
	"key.newLine.hint": "neue Zeile",
	"key.external.help": "im Editor: den Text in deinem $VISUAL / $EDITOR bearbeiten, wie im Editor von pi",
	"key.external.hint": "externer Editor",
	"key.clearLine.help": "im Editor: bis zum Zeilenanfang löschen",
	"key.clearLine.hint": "Zeile löschen",
	"key.detach.help":
		"im Editor, am Anfang des Textes: die zuletzt angehängte Datei entfernen (zum Anhängen den Pfad einer Datei einfügen oder sie hineinziehen)",
	"key.detach.hint": "Datei entfernen",
	"key.pasteImage.help": "im Editor: das Bild der Zwischenablage anhängen, wie in pis Editor",
	"key.pasteImage.hint": "Bild einfügen",
	"key.back.help": "im Editor: zurück zu den Optionen; das Getippte bleibt als Entwurf erhalten",
	"key.back.hint": "zurück",
	"key.close.help": "in dieser Hilfe: {keys} schließen sie",
	"key.close.hint": "schließen",

	// ── Das Protokoll ──────────────────────────────────────────────────────
	"status.answered": "Beantwortet",
	"status.dismissed": "Verworfen",
	"status.aborted": "Unterbrochen",
	"status.no_ui": "Keine Oberfläche zum Fragen",
	"status.timed_out": "Zeit abgelaufen",
	"status.error": "Fehlgeschlagen",
	"status.chat": "Stattdessen im Chat geantwortet",
	"status.pending": "Wartet auf den Benutzer",
	"outcome.answered": "beantwortet",
	"outcome.skipped": "übersprungen",
	"outcome.unanswered": "unbeantwortet",
	"outcome.delegated": "dem Modell überlassen",
	"transcript.answeredElsewhere": "Anderswo beantwortet, über {source}",
	"transcript.noteMark": "(+Notiz)",
	"transcript.draftMark": "(+Entwurf)",
	"transcript.formNote": "✎ Notiz zum gesamten Formular: {text}",
	"transcript.chatDraft": "💬 Nachricht für den Chat, Entwurf, nicht gesendet: {text}",
	"transcript.formNoteDraft": "✎ Notiz zum gesamten Formular, Entwurf, nicht gespeichert: {text}",
	"transcript.notePrefix": "Notiz: ",
	"transcript.noteDraftPrefix": "Notizentwurf, nicht gespeichert: ",
	"transcript.wrote": "eigene Antwort:",
	"transcript.draftPrefix": "Entwurf, nicht gespeichert: ",
	"transcript.failed": "ask_user fehlgeschlagen",

	// ── Die Dialogfolge (RPC-Hosts): Zeilen und Titel ──────────────────────
	"walker.previews": "👁 Vorschauen der Optionen zeigen…",
	"walker.freeText": "✎ Etwas eingeben…",
	"walker.youDecide": "🤖 Entscheide du (dem Modell überlassen)",
	"walker.note": "✎ Notiz hinzufügen…",
	"walker.editNote": "✎ Notiz bearbeiten…",
	"walker.skip": "↷ Überspringen",
	"walker.done": "✓ Fertig",
	"walker.next": "→ Weiter (diese Antwort behalten)",
	"walker.back": "← Zurück",
	"walker.submit": "✓ Absenden",
	"walker.formNote": "✎ Notiz zum gesamten Formular hinzufügen…",
	"walker.editFormNote": "✎ Notiz zum gesamten Formular bearbeiten…",
	"walker.chat": "💬 Stattdessen im Chat antworten…",
	"walker.cancel": "✗ Abbrechen",
	"walker.freeTextYours": "✎ Etwas eingeben… (deine Antwort: {text})",
	"walker.selected": "Ausgewählt: {answer}",
	"walker.pickThenDone": "Wähle eine oder mehrere aus, dann „Fertig“.",
	"walker.yourAnswer": "Deine Antwort: {answer}",
	"walker.asks": "{asker} fragt",
	"walker.askedBy": "Anfrage von {asker}",
	"walker.chatTitle": "Deine Nachricht für den Chat statt des Formulars (deine bisherigen Antworten bleiben erhalten)",
	"walker.formNoteTitle": "Eine Notiz zum gesamten Formular",
	"walker.answerTo": "Deine Antwort auf: {question}",
	"walker.noteOn": "Eine Notiz zu: {question}",
	"walker.previewsTitle": "Vorschauen der Optionen zu: {question}",
	"walker.previewsReadOnly":
		"Nur zum Lesen: hier Getipptes wird nicht übernommen. Schließe den Editor, um zur Frage zurückzukehren.",
	"walker.skipped": "(übersprungen)",
	"walker.noAnswer": "(keine Antwort)",
	"walker.noteLine": "Notiz: {text}",
	"walker.formNoteLine": "Notiz zum gesamten Formular: {text}",
	"walker.unsavedOverLimit": {
		one: "⚠ {count} Text über dem Limit wurde nicht gespeichert; „Absenden“ lässt ihn weg.",
		other: "⚠ {count} Texte über dem Limit wurden nicht gespeichert; „Absenden“ lässt sie weg.",
	},
	"walker.position": "{index} von {total}",
	"walker.optional": "optional",
	"walker.choiceOnly":
		"ⓘ Dieser Host zeigt keine Textfelder: Antworte, indem du eine Zeile wählst (die Zeilen für eigenen Text, Notizen und Vorschauen fehlen).",
	"walker.stray": "⚠ Diese Antwort ist keine der Zeilen: Wähle eine davon.",
	"walker.pathAsText": "Schick ihn unverändert ab, um ihn als Text zur Antwort zu machen.",
	"walker.needsText":
		"Schreib ein paar Worte zu den angehängten Dateien; um ohne sie zu antworten, brich diesen Editor ab und wähle eine Option.",
	"walker.blank": "ⓘ Der Text blieb leer: dafür ist nichts gespeichert.",
	"walker.notText": "⚠ Diese Antwort war kein Text: Schreib sie noch einmal.",
	"walker.closed": "ask_user: Diese Fragen sind geschlossen; eine Antwort im offenen Dialog wird ignoriert.",
	"elicitation.ownAnswer": "{header}: deine eigene Antwort",
	"elicitation.addedToChosen": "Wird zu den gewählten Optionen hinzugefügt.",
	"elicitation.insteadOfOption": "Statt eine Option zu wählen.",
	"elicitation.note": "{header}: eine Notiz",
	"elicitation.asks": {
		one: "{asker} stellt {count} Frage: {questions}",
		other: "{asker} stellt {count} Fragen: {questions}",
	},
	"elicitation.agentAsks": {
		one: "Der Agent stellt {count} Frage: {questions}",
		other: "Der Agent stellt {count} Fragen: {questions}",
	},

	// ── Die Aufmerksamkeit des Benutzers wecken ────────────────────────────
	"attention.waiting": { one: "{count} Frage wartet", other: "{count} Fragen warten" },
	"attention.waitingAskedBy": {
		one: "{count} Frage wartet – gestellt von {asker}",
		other: "{count} Fragen warten – gestellt von {asker}",
	},
	"attention.title": { one: "❓ {count} Frage · {title}", other: "❓ {count} Fragen · {title}" },

	// ── Warnungen beim Start ───────────────────────────────────────────────
	"warning.settingsNotJson":
		"ask_user-Einstellungen: {file} ist kein gültiges JSON ({reason}): Nichts davon wird angewendet. Korrigiere das JSON oder entferne die Datei.",
	"warning.settingsNotObject":
		"ask_user-Einstellungen: {file} muss ein JSON-Objekt enthalten ({example}): Nichts davon wird angewendet.",
	"warning.settingsUnreadable":
		"ask_user-Einstellungen: {file} konnte nicht gelesen werden ({reason}): Nichts davon wird angewendet.",
	"warning.settingsUnknownKey":
		"ask_user-Einstellungen: {file}: Unbekannter Schlüssel {key} wird ignoriert. Bekannte Schlüssel: {keys}.",
	"warning.settingsBadValue":
		"ask_user-Einstellungen: {source} muss {takes} sein (gefunden: {found}); der Wert wird ignoriert.",
	"takes.oneOf": "einer der Werte {values}",
	"takes.text": "eine nicht leere Zeichenkette mit höchstens {max} Zeichen",
	"takes.seconds": "0 (aus) oder eine Anzahl Sekunden von 1 bis {max}",
	"takes.boolean": "true oder false",
	"takes.lines": "eine Liste mit höchstens {max} nicht leeren Zeichenketten",
	"takes.peekKey":
		"eine vom Formular noch nicht belegte Taste (ein Buchstabe, ctrl+ oder alt+ mit einem Buchstaben oder f1 bis f12; schon belegt sind {taken})",
	"warning.projectSteering":
		"ask_user-Einstellungen: {file} setzt {keys}, die in den Prompt des Modells gehen: Sie gelten nur in einem Projekt, dem Sie vertrauen, und diesem vertraut pi nicht aufgrund Ihrer Entscheidung. Der Standardtext wird verwendet. Um sie zu nutzen, geben Sie dem Projekt eigene pi-Einstellungen (eine .pi/settings.json), vertrauen Sie ihm und starten Sie pi neu.",
	"warning.projectEnding":
		"ask_user-Einstellungen: {file} setzt {keys}, womit ein Formular enden kann, bevor Sie antworten, und das Modell dann ohne Sie weitermacht: Das gilt nur in einem Projekt, dem Sie vertrauen, und diesem vertraut pi nicht aufgrund Ihrer Entscheidung. Ihre eigene Einstellung gilt. Um es zu nutzen, geben Sie dem Projekt eigene pi-Einstellungen (eine .pi/settings.json), vertrauen Sie ihm und starten Sie pi neu.",
	"warning.noChannel": "ask_user: Subagenten können nicht über diese Sitzung fragen ({reason})",
	"form.restored":
		"Wiederhergestellt: Deine Antworten von vor dem Ende von pi sind zurück; Absenden schickt sie an das Modell",
	"form.reopened":
		"Wieder geöffnet: Der Aufruf ist beendet, daher geht deine Antwort beim Absenden als Nachricht an das Modell",
	"kept.title": "Formulare dieser Sitzung — {key} öffnet",
	"kept.dropTitle": "Welches Formular verwerfen?",
	"kept.none": "Kein Formular dieser Sitzung wartet auf eine Antwort",
	"kept.open": "unterbrochen",
	"kept.dismissed": "verworfen",
	"kept.aborted": "abgebrochen",
	"kept.timed_out": "Zeit abgelaufen",
	"kept.error": "fehlgeschlagen",
	"kept.chat": "im Chat beantwortet",
	"kept.answered": "beantwortet {when}",
	"kept.unchanged": "Nichts geändert, daher wurde dem Modell nichts erneut gesagt",
	"form.revising":
		"Überarbeiten: deine Antworten, wie du sie abgeschickt hast; erneutes Absenden sagt dem Modell, was sich geändert hat",
	"warning.keptDropped": "ask_user: Ein gespeichertes Formular wurde verworfen ({reason})",
	"warning.keptNotSaved":
		"ask_user: Dieses Formular kann nicht in {file} gespeichert werden ({reason}); es bleibt offen, aber was Sie eingeben, übersteht ein Ende von pi nicht",
	"takes.address": "eine IP-Adresse dieses Rechners, etwa 127.0.0.1 oder 192.168.1.20",
	"takes.port": "ein Port von 0 bis 65535 (0: ein beliebiger freier Port)",
	"warning.projectUserOnly":
		"ask_user-Einstellungen: {file} setzt {keys}, die diesen Rechner zum Netzwerk hin öffnen: Nur deine eigene Einstellungsdatei, eine Option oder eine Variable darf sie setzen. Ignoriert.",
	"web.link": "🌐 Im Browser antworten: {url}",
	"web.answered": "✓ Gesendet: Der Agent hat deine Antworten. Du kannst diese Seite schließen.",
	"web.closed": "Dieses Formular wurde im Terminal geschlossen: Hier gibt es nichts mehr zu beantworten.",
	"web.notSent": "Nicht gesendet: {error}",
	"web.alreadyAnswered":
		"Dieses Formular wurde bereits beantwortet oder geschlossen: Deine Antworten wurden nicht gesendet.",
	"web.qr": "Mit dem Handy scannen, um im Browser zu antworten:",
	"web.qrMissing": "Kein QR-Code: das optionale Paket uqr fehlt (npm install im Ordner dieser Erweiterung ausführen)",
	"web.loopback":
		"Für ein Handy: Diese Seite lauscht nur auf diesem Rechner. Setze {setting} in deiner {file} auf die LAN- oder Tailnet-Adresse dieses Rechners (oder {flag}), dann erscheint hier ihr QR-Code.",
	"web.needsScript":
		"Diese Seite braucht JavaScript, um das Formular zu zeigen: Schalte es ein oder antworte im Terminal.",
	"web.attach": "📎 Foto oder Datei anhängen",
	"web.removeFile": "{name} entfernen",
	"web.fileTooLarge": "{name} ist zu groß zum Anhängen ({size}, die Grenze ist {limit}).",
	"web.answerFull": "Höchstens {limit} Dateien pro Antwort.",
	"web.formFull": "Höchstens {limit} Dateien pro Formular.",
	"web.totalTooLarge": "Mit {name} lägen die Dateien des Formulars über {limit}.",
	"web.fileUnreadable": "{name} lässt sich nicht lesen: wähle die Datei erneut.",
	"web.submitTooLarge": "Nicht gesendet: die Dateien sind zu groß, höchstens {limit} insgesamt.",
	"warning.webCannotListen":
		"ask_user: Die Browserseite konnte nicht auf {address}:{port} lauschen ({reason}); antworte im Terminal.",
};
