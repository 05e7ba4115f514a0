"""German cue phrases (the categories and the phrase grammar: `resilient_parse.text.lexicon`).

Spaced: phrases match as whole words and case-insensitively, so the capitalised nouns are written in lower case;
a compound is one word, so the common ones ("Beispielausgabe", "Benutzeranfrage") are listed whole. Adjectives
carry their endings as a group ("falsch(e|er|es|en|)")."""

LANGUAGE = "de"
SCRIPT = "spaced"
DECIMAL_MARK = ","
MINUS = ("minus",)
SCALES = {
    "tausend": 10**3,
    "tsd": 10**3,
    "million": 10**6,
    "millionen": 10**6,
    "mio": 10**6,
    "milliarde": 10**9,
    "milliarden": 10**9,
    "mrd": 10**9,
    "dutzend": 12,
    "dutzende": 12,
}
PHRASES = {
    "lead_in": (
        "kein problem",
        "hier (ist|sind|kommt|kommen|hast du|haben sie|die|das|der|bitte)",
        "(die|meine) (antwort|ausgabe|lösung|loesung) (ist|lautet|wäre|waere|wird)",
        "(das|mein) (ergebnis|resultat|json) (ist|lautet|wäre|waere)",
        "(antwort|ergebnis|ausgabe|resultat|lösung|loesung)",
        "für (deine|ihre|diese|die) (anfrage|frage|bitte)",
        "wie (gewünscht|gewuenscht|angefragt|verlangt|gefordert|besprochen|erbeten)",
        "(gerne|gern|klar|natürlich|natuerlich|selbstverständlich|sicher|selbstverstaendlich)",
        "(nachfolgend|im folgenden|untenstehend|folgendes|folgende)",
        "(basierend auf|gemäß|gemaess|entsprechend) (deiner|ihrer|der) (anfrage|eingabe|beschreibung|vorgabe)",
    ),
    "closing": (
        "(lass|lasst|lassen sie) (mich|es mich|uns) wissen",
        "(sag|sagen sie|gib|geben sie) (mir |)(gerne |gern |einfach |)bescheid",
        "(ich hoffe|hoffe)(,|) (das|dies|es) (hilft|hilft dir|hilft ihnen|ist hilfreich)",
        "(melde dich|melden sie sich|zögere nicht|zögern sie nicht|zoegere nicht)",
        "(wenn|falls) (du|sie) (noch |weitere |)(fragen|etwas|hilfe|änderungen) (hast|haben|brauchst|brauchen)",
        "(wenn du|wenn sie|falls du|falls sie) (möchtest|möchten|willst|wollen|magst|mögen)",
        "(falls gewünscht|falls gewuenscht|bei weiteren fragen|bei fragen|bei bedarf)",
        "(gibt es|brauchst du|brauchen sie) noch (etwas|was|weitere)",
        "(viel erfolg|viel spaß|viel spass|gern geschehen|gerne geschehen|freut mich)",
        "(ich helfe|helfe) (gerne|gern) weiter",
    ),
    "description": (
        "im json(-| )format",
        "(als|in) (json|json-objekt|json objekt|gültiges json|gueltiges json)",
        "im format json",
        "(gültiges|gueltiges|valides|korrektes|wohlgeformtes) json",
        "im (gewünschten|gewuenschten|geforderten|erwarteten|angegebenen|vorgegebenen|verlangten|folgenden|gleichen"
        "|richtigen) format",
        "in der (gewünschten|geforderten|erwarteten|angegebenen|vorgegebenen) (form|struktur)",
        "(gemäß|gemaess|entsprechend|nach) dem (schema|format)",
    ),
    "designation": (
        "(endgültig|endgueltig|richtig|korrekt|korrigiert|aktualisiert|überarbeitet|final|tatsächlich|verbessert)(e"
        "|er|es|en) (antwort|version|ausgabe|lösung|json|fassung|ergebnis|objekt|aufruf|wert)",
        "die (richtige|korrekte|endgültige|endgueltige|finale) antwort (ist|lautet|wäre)",
        "die antwort (ist|lautet|wäre|waere)",
        "(endergebnis|endfassung|endversion|schlussergebnis|gesamtergebnis)",
        "(endgültig|endgueltig|final|abschließend|abschliessend)",
    ),
    "example": (
        "bsp.",
        "(nur|lediglich|bloß|bloss) (ein|eine) (beispiel|veranschaulichung|muster|vorlage|demo)",
        "(angenommen,|nehmen wir an|sagen wir|stell dir vor|stellen sie sich vor)",
        "zum beispiel",
        "(z. b.|z.b.|z. b|z.b|bspw.|bspw|zb.)",
        "(ein|als|ein weiteres|ein anderes) beispiel",
        "beispiel(e|en|s|)",
        "beispielsweise",
        "(beispielhaft|exemplarisch)(e|er|es|en|)",
        "beispiel(-|)(antwort|ausgabe|daten|wert|werte|aufruf|code|json|objekt|eingabe|datei|anfrage)",
        "(vorlage|vorlagen|schablone|schablonen|template|templates)",
        "(platzhalter|dummy|dummywert|dummywerte|testdaten|musterdaten|beispieldaten)",
        "(zur|als) (veranschaulichung|illustration|verdeutlichung)",
        "(hypothetisch|fiktiv|erfunden|ausgedacht)(e|er|es|en|)",
        "(etwa|ungefähr|ungefaehr) so",
        "(sähe|saehe) (etwa |ungefähr |in etwa |)so aus",
        "(könnte|würde|wuerde) (etwa |ungefähr |in etwa |)so aussehen",
        "(so etwas wie|sowas wie|etwas wie|so was wie)",
        "(musterbeispiel|mustervorlage|musterdatensatz)",
        "(demo|vorführung|vorfuehrung)",
    ),
    "alternative": (
        "(alternativ|alternativen|alternativ dazu)",
        "(eine |)alternative",
        "(eine andere|eine weitere|noch eine|andere) (option|möglichkeit|moeglichkeit|variante|version|lösung"
        "|loesung|vorgehensweise)",
        "(option|variante) (a|b|c|d|1|2|3|eins|zwei|drei)",
        "(optionen|varianten|möglichkeiten)",
        "(oder|oder aber|oder auch|oder stattdessen|oder vielleicht|beziehungsweise|bzw.)",
        "(du könntest|sie könnten|man könnte|wir könnten) (auch |)(versuchen|verwenden|benutzen|nutzen|aufrufen)",
        "(wie wäre es mit|wie waere es mit|was ist mit|was hältst du von|was halten sie von)",
        "stattdessen",
    ),
    "counter_example": (
        "(unter keinen umständen|unter keinen umstaenden|auf keinen fall|keinesfalls|auf gar keinen fall)",
        "(mach|macht|machen sie|tu|tue) (das|dies|so etwas) nicht",
        "nicht (verwenden|benutzen|nutzen|ausgeben|zurückgeben|zurueckgeben|senden|schicken|aufrufen|schreiben"
        "|einfügen|ausführen|erzeugen|generieren|kopieren|übernehmen)",
        "(verwende|benutze|nutze|sende|schicke|rufe|schreibe|erzeuge|generiere|kopiere|übernimm) (das |dies |diese"
        " |es |)(niemals|nie|nicht)",
        "(verwenden|benutzen|nutzen|senden|schreiben|erzeugen|generieren|kopieren|übernehmen) sie (das |dies |diese"
        " |es |)(niemals|nie|nicht)",
        "(gib|geben sie) (das |dies |es |)nicht aus",
        "(darf|sollte|soll|dürfen|sollten|muss) nicht (verwendet|ausgegeben|zurückgegeben|zurueckgegeben|aufgerufen"
        "|gesendet|benutzt|genutzt|übernommen) werden",
        "(vermeide|vermeiden sie|vermeidet es|vermeide es)",
        "niemals",
        "(gegenbeispiel|gegenbeispiele|negativbeispiel|negativbeispiele|antibeispiel|anti-beispiel)",
        "(schlechtes|negatives|falsches) beispiel",
        "(schlechte|negative|falsche) beispiele",
        "(was man nicht tun sollte|wie man es nicht macht|so nicht|bitte nicht so)",
        "(anstatt|statt) (des|der|dem|den|eines|einer|einem|zu)",
        "anstatt",
        "nicht (das hier|dieses hier|wie hier|so wie hier)",
    ),
    "rejected": (
        "verboten",
        "falsch",
        "(ist|war|wäre|waere|sind|wären) (gefährlich|gefaehrlich|unsicher|schädlich|schaedlich|destruktiv|riskant"
        "|eine schlechte idee|ein fehler)",
        "(falsch|ungültig|ungueltig|verboten|inkorrekt|fehlerhaft|unzulässig|unzulaessig|abgelehnt|unkorrekt"
        "|unerlaubt)(e|er|es|en|)",
        "nicht (korrekt|richtig|gültig|gueltig|erlaubt|zulässig|zulaessig|zugelassen|gestattet|akzeptabel"
        "|die antwort|das richtige)",
        "nicht (die|meine|unsere) (richtige|echte|tatsächliche|endgültige|korrekte|finale) antwort",
        "(inakzeptabel|unzutreffend|untersagt)",
        "(falsch|ungültig|ungueltig|fehlerhaft|inkorrekt|schlecht|kaputt|defekt|fehlgeschlagen|abgelehnt|verboten)(e"
        "|er|es|en) (antwort|ausgabe|version|json|lösung|aufruf|ergebnis|versuch|wert|beispiel)",
        "(das ist|das war) (falsch|ein fehler|so nicht richtig)",
        "(mach|tu) das nicht",
    ),
    "draft": (
        "(entwurf|entwürfe|entwuerfe|rohentwurf|rohfassung)",
        "(erste|erster|erstes|ersten) (versuch|entwurf|fassung|version|idee|ansatz|anlauf|skizze)",
        "(vorläufig|vorlaeufig|provisorisch)(e|er|es|en|)",
        "(skizze|grobentwurf|grobfassung)",
        "(in arbeit|in bearbeitung|work in progress)",
        "(ich habe überlegt|ich hatte überlegt|ich dachte zuerst|zunächst dachte ich|zuerst dachte ich|ich wollte"
        " zuerst|ich wollte erst)",
        "(ich hatte vor|ich war dabei)",
    ),
    "correction": (
        "(moment|warte|halt),",
        "(korrektur|berichtigung|richtigstellung)",
        "(korrigiert|berichtigt|richtiggestellt)",
        "(eigentlich|tatsächlich|tatsaechlich|in wirklichkeit|genau genommen|genauer gesagt|vielmehr)",
        "(moment mal|einen moment|warte mal|warte|halt,)",
        "(ich habe mich geirrt|ich habe mich vertan|ich habe mich verschrieben|ich habe einen fehler gemacht"
        "|mein fehler|sorry, mein fehler)",
        "(lass mich|lassen sie mich|ich möchte) (das |)(korrigieren|berichtigen|richtigstellen)",
        "(bei näherer betrachtung|bei naeherer betrachtung|beim zweiten hinsehen|wenn ich es mir recht überlege)",
        "(aktualisiert|überarbeitet|ueberarbeitet|verbessert|angepasst)",
        "(oder besser|besser gesagt|oder vielmehr)",
    ),
    "retraction": (
        "(war nur ein scherz|nur ein scherz|nur spaß|nur spass|war nur spaß|war nur spass|kleiner scherz)",
        "(ich mache nur spaß|ich mach nur spaß|ich scherze|ich mache nur spass|scherz beiseite)",
        "(vergiss es|vergessen sie es|vergesst es|vergiss das|vergessen sie das)",
        "(vergiss|vergessen sie) (das obige|das vorherige|die vorherige antwort|was ich gesagt habe|das gerade)",
        "(ignoriere|ignorieren sie|ignoriert) (das|dies|das obige|das vorherige|die vorherige antwort|meine letzte"
        " antwort)",
        "(streich das|streichen sie das|schon gut)",
        "ich nehme (das|es|alles) zurück",
        "(lieber doch nicht|ach nein|nein, doch nicht)",
        "nicht (wirklich|tatsächlich) (die|meine) antwort",
        "(verwirf|verwerfen sie) (das|dies)",
    ),
    "refusal": (
        "das mache ich nicht",
        "das kann ich nicht (machen|tun)",
        "(es tut mir leid|tut mir leid|leider|sorry|entschuldigung)(,|) (aber |)(ich kann|das kann ich|ich darf)"
        " (das |dabei |hier |)nicht",
        "leider (kann|darf) ich (das |dir |ihnen |dabei |hier |)nicht",
        "(dabei|damit|hierbei|hiermit) kann ich (dir |ihnen |euch |)nicht (helfen|weiterhelfen|behilflich sein)",
        "ich kann (dir |ihnen |euch |)(dabei |damit |hierbei |)nicht (helfen|weiterhelfen|behilflich sein)",
        "ich kann das nicht",
        "ich kann (diese anfrage|diese aufgabe|dies|diesen aufruf|diese aktion|das) nicht (erfüllen|ausführen"
        "|bearbeiten|durchführen|beantworten|tun|machen|erledigen|liefern|erstellen|umsetzen)",
        "ich werde (das|dies|diese anfrage|es) nicht (tun|machen|ausführen|ausgeben|wiederholen|erstellen|senden)",
        "(ich muss|ich möchte|ich werde) (das |dies |diese anfrage |)(höflich |leider |)ablehnen",
        "(ich lehne|lehne ich) (das |dies |diese anfrage |)ab",
        "(ich weigere mich|ich verweigere)",
        "als (ki|sprachmodell|ki-modell|ki-assistent|künstliche intelligenz|kuenstliche intelligenz)",
        "(verstößt|verstoesst) gegen (meine|unsere|die) (richtlinien|regeln|grundsätze|grundsaetze)",
        "(widerspricht|entgegen) (meinen|unseren) (richtlinien|regeln|grundsätzen|grundsaetzen)",
        "ich bin (nicht in der lage|dazu nicht in der lage|nicht befugt|nicht berechtigt)",
        "(es ist mir nicht möglich|es ist mir nicht moeglich|das ist mir nicht möglich)",
        "(ich möchte|ich würde) (das |dies |)lieber nicht",
        "(anfrage|anforderung) (abgelehnt|verweigert)",
        "(ich darf|ich kann) (dir|ihnen) (das |)nicht (geben|liefern|sagen|zeigen|ausgeben)",
    ),
    "question": (
        "soll ich",
        "sollen wir",
        "(möchtest|moechtest|willst|magst) du",
        "(möchten|moechten|wollen|wünschen|wuenschen) sie",
        "(meinst du|meinten sie|meinen sie|hast du gemeint|haben sie gemeint|meintest du)",
        "(kannst du|können sie|koennen sie|könntest du|könnten sie) (das |)(bitte |)(klären|klaeren|bestätigen"
        "|bestaetigen|präzisieren|erläutern|genauer angeben|spezifizieren)",
        "ist (das|es) (das|dies|genau das)(,|) was (du|sie)",
        "welche (option|variante|version) (möchtest|möchten|bevorzugst|bevorzugen|willst|wollen)",
        "(ist|wäre|waere) das (die antwort|die richtige antwort|richtig|korrekt|so richtig|so in ordnung)",
    ),
    "hedge": (
        "(vielleicht|eventuell|evtl.|evtl|womöglich|womoeglich|möglicherweise|moeglicherweise)",
        "(wahrscheinlich|vermutlich|wohl|voraussichtlich|anscheinend|offenbar|scheinbar|angeblich|mutmaßlich)",
        "ich (glaube|denke|vermute|schätze|schaetze|nehme an|meine|gehe davon aus)",
        "(ich bin mir nicht sicher|ich bin nicht sicher|nicht sicher|nicht ganz sicher|bin mir unsicher|unsicher)",
        "(es scheint|scheint|es sieht so aus|anscheinend)",
        "(ich habe|habe ich) angenommen",
        "(ungefähr|ungefaehr|etwa|circa|ca.|rund|in etwa|annähernd|naeherungsweise)",
        "(mehr oder weniger|gewissermaßen|gewissermassen|irgendwie|sozusagen|quasi)",
        "(könnte|koennte|dürfte|duerfte) (sein|stimmen)",
        "(kann sein|könnte sein|mag sein)",
        "(größtenteils|groesstenteils|meistens|im wesentlichen|im großen und ganzen|grundsätzlich)",
        "(theoretisch|prinzipiell|im prinzip|eigentlich schon)",
        "ich kann (das |es |)nicht (garantieren|versprechen|sicher sagen|mit sicherheit sagen|überprüfen|verifizieren)",
    ),
    "apology": (
        "(es tut mir leid|tut mir leid|es tut mir sehr leid|entschuldigung|entschuldige|entschuldigen sie|sorry)",
        "(leider|bedauerlicherweise|unglücklicherweise)",
        "(ich entschuldige mich|ich bitte um entschuldigung|ich bedaure)",
        "als (ki|sprachmodell|ki-modell|ki-assistent|künstliche intelligenz|kuenstliche intelligenz)",
    ),
    "bound": (
        "(mindestens|höchstens|hoechstens|maximal|minimal|wenigstens|zumindest|allerhöchstens)",
        "(mehr|weniger|größer|groesser|kleiner|höher|hoeher|niedriger|länger|kürzer) als",
        "bis (zu|max.|maximal|höchstens)",
        "nicht (mehr|weniger) als",
        "(über|ueber|unter|etwa|ungefähr|ungefaehr|rund|circa|ca.|knapp|fast|beinahe|zwischen|oberhalb|unterhalb"
        "|annähernd)",
        "oder (mehr|weniger|darüber|darunter)",
        "(max|min|maximum|minimum)",
        "(von mindestens|von maximal|ab mindestens)",
    ),
    "negation": (
        "nicht",
        "kein(e|en|em|er|es|)",
        "(nie|niemals|nimmer)",
        "(nichts|niemand|nirgends|nirgendwo)",
        "(weder|ohne|kaum)",
        "(nicht mehr|gar nicht|überhaupt nicht|keineswegs)",
    ),
    "reference": (
        "(das obige|die obige|der obige|obiges|oben genannte|oben genanntes|oben stehende|obenstehende)",
        "(das|der|die) (vorherige|vorige|letzte|obige|erste) (json|aufruf|ausgabe|antwort|objekt|beispiel|version"
        "|ergebnis)",
        "(dieses|diese|dieser|jenes|jene) (json|aufruf|ausgabe|antwort|objekt|beispiel|version|ergebnis)",
        "(das|dies|der|die) (hier|da oben|oben)",
        "(dies|das|dieses|diese|jenes)",
    ),
    "quoted_input": (
        "(benutzeranfrage|nutzeranfrage|benutzereingabe|nutzereingabe|benutzernachricht|nutzernachricht"
        "|benutzerfrage|nutzerfrage|kundenanfrage)",
        "(anfrage|eingabe|nachricht|frage|bitte|prompt) des (benutzers|nutzers|users|anwenders|kunden)",
        "der (benutzer|nutzer|user|anwender) (schrieb|sagte|fragte|hat geschrieben|hat gefragt|hat gesagt|möchte"
        "|moechte|will|wünscht|bittet|bat|schreibt|fragt)",
        "(du hast|sie haben|ihr habt) (geschrieben|gesagt|gefragt|geschickt)",
        "(vorhin|zuvor|vorher) (hast du|haben sie)",
        "(ursprüngliche|urspruengliche|gegebene|bereitgestellte|vorliegende|originale)(n|) (anfrage|eingabe"
        "|nachricht|text|frage)",
        "(eingabe|anfrage|frage|prompt|aufgabe|benutzer|nutzer)( |):",
        "(zitat|zitiert|ich zitiere)",
    ),
    "operation": (
        "(die |)hälfte",
        "(das |)doppelte",
        "doppelt",
        "(das |)dreifache",
        "hoch zwei",
    ),
    "yes": (
        "ja",
        "jawohl",
    ),
    "no": ("nein",),
}

WORDS = {
    "and": ("und",),
    "or": ("oder",),
    "null": ("keine", "keiner", "keines", "keins"),
    # ungültig, nicht-öffentlich, Misserfolg; the Latin ones (in-, il-, dis-) are English's rows too
    "negating_prefixes": ("un", "nicht", "anti", "miss", "des"),
    "key_negations": ("nicht", "kein", "keine", "nie", "ohne"),
}
