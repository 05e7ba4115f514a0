"""The Spanish, Portuguese, French, German, Italian and Russian tables of the lexicon: each finds its cues where
models write them, at the words that carry them, and finds no exclusion cue in the prose a model writes around an
ordinary answer."""

from __future__ import annotations

import importlib

import pytest

from resilient_parse.text.lexicon import CATEGORIES, lexicon

LANGUAGES = ("es", "pt", "fr", "de", "it", "ru")

EXCLUSIONS = frozenset(
    {"example", "counter_example", "rejected", "draft", "retraction", "refusal", "question", "quoted_input"}
)
"""The categories that keep a candidate from being the answer."""

FINDS = [
    # (language, text, category, the phrase in the text that carries it)
    ("es", "Aquí está el JSON que pediste:", "lead_in", "Aquí está"),
    ("es", "Respuesta: {}", "lead_in", "Respuesta"),
    ("es", "Espero que te sirva. ¡Saludos!", "closing", "Espero que te sirva"),
    ("es", "No dudes en preguntar si necesitas otro campo.", "closing", "No dudes en"),
    ("es", "El resultado en formato JSON es el siguiente:", "description", "en formato JSON"),
    ("es", "Respuesta final: {}", "designation", "Respuesta final"),
    ("es", "La versión corregida queda así:", "designation", "versión corregida"),
    ("es", "Por ejemplo, una llamada podría ser:", "example", "Por ejemplo"),
    ("es", "Usa esta plantilla y rellena los campos:", "example", "plantilla"),
    ("es", "Alternativamente, puedes llamar a search:", "alternative", "Alternativamente"),
    ("es", "Otra opción sería:", "alternative", "Otra opción"),
    ("es", "No uses este formato:", "counter_example", "No uses"),
    ("es", "Mal ejemplo (no lo copies):", "counter_example", "Mal ejemplo"),
    ("es", "Esto es incorrecto: {}", "rejected", "incorrecto"),
    ("es", "Respuesta incorrecta: {}", "rejected", "Respuesta incorrecta"),
    ("es", "Borrador: {}", "draft", "Borrador"),
    ("es", "Mi primer intento fue este:", "draft", "primer intento"),
    ("es", "Corrección: el campo es una lista.", "correction", "Corrección"),
    ("es", "En realidad, el id es 7.", "correction", "En realidad"),
    ("es", "Es broma, olvídalo.", "retraction", "Es broma"),
    ("es", "Ignora lo anterior.", "retraction", "Ignora lo anterior"),
    ("es", "Lo siento, no puedo hacerlo.", "refusal", "Lo siento, no puedo"),
    ("es", "No puedo ayudar con esa solicitud.", "refusal", "No puedo ayudar"),
    ("es", "¿Quieres que use la zona horaria de Madrid?", "question", "Quieres que"),
    ("es", "¿Debería incluir el campo opcional?", "question", "Debería incluir"),
    ("es", "Quizás el valor sea 3.", "hedge", "Quizás"),
    ("es", "Creo que la fecha es correcta.", "hedge", "Creo que"),
    ("es", "Como máximo 5 elementos.", "bound", "Como máximo"),
    ("es", "Son más de 10 usuarios.", "bound", "más de"),
    ("es", "Nunca lo envíes así.", "negation", "Nunca"),
    ("es", "Solicitud del usuario: reserva un vuelo.", "quoted_input", "Solicitud del usuario"),
    ("es", "El usuario dijo que quería dos.", "quoted_input", "El usuario dijo"),
    ("es", "Lo anterior no es válido.", "reference", "Lo anterior"),
    ("es", "Lo siento mucho, no tengo acceso a esa base de datos.", "apology", "Lo siento mucho"),
    ("pt", "Aqui está o JSON solicitado:", "lead_in", "Aqui está"),
    ("pt", "Segue abaixo o resultado:", "lead_in", "Segue abaixo"),
    ("pt", "Espero ter ajudado!", "closing", "Espero ter ajudado"),
    ("pt", "Qualquer dúvida, estou à disposição.", "closing", "Qualquer dúvida"),
    ("pt", "Os dados em formato JSON:", "description", "em formato JSON"),
    ("pt", "Resposta final: {}", "designation", "Resposta final"),
    ("pt", "A versão corrigida é esta:", "designation", "versão corrigida"),
    ("pt", "Por exemplo: {}", "example", "Por exemplo"),
    ("pt", "Um exemplo de chamada:", "example", "Um exemplo"),
    ("pt", "Ou então, chame a API de busca:", "alternative", "Ou então"),
    ("pt", "Não use aspas simples:", "counter_example", "Não use"),
    ("pt", "Em vez de null, use uma lista vazia.", "counter_example", "Em vez de"),
    ("pt", "Resposta errada: {}", "rejected", "Resposta errada"),
    ("pt", "Isto é proibido: {}", "rejected", "proibido"),
    ("pt", "Rascunho: {}", "draft", "Rascunho"),
    ("pt", "Primeira tentativa:", "draft", "Primeira tentativa"),
    ("pt", "Na verdade, o id é 8.", "correction", "Na verdade"),
    ("pt", "Correção: o campo é opcional.", "correction", "Correção"),
    ("pt", "É brincadeira, esquece.", "retraction", "É brincadeira"),
    ("pt", "Esquece isso, use o outro.", "retraction", "Esquece isso"),
    ("pt", "Desculpe, não posso fazer isso.", "refusal", "Desculpe, não posso"),
    ("pt", "Não posso ajudar com este pedido.", "refusal", "Não posso ajudar"),
    ("pt", "Você quer que eu inclua o endereço?", "question", "Você quer"),
    ("pt", "Talvez seja 4.", "hedge", "Talvez"),
    ("pt", "Provavelmente o valor é 4.", "hedge", "Provavelmente"),
    ("pt", "Pelo menos 3 itens.", "bound", "Pelo menos"),
    ("pt", "No máximo 10 itens.", "bound", "No máximo"),
    ("pt", "Não inclua o campo.", "counter_example", "Não inclua"),
    ("pt", "O valor não existe.", "negation", "não"),
    ("pt", "Pedido do usuário: marcar reunião.", "quoted_input", "Pedido do usuário"),
    ("pt", "O usuário disse que queria dois.", "quoted_input", "O usuário disse"),
    ("pt", "Isso está errado.", "reference", "Isso"),
    ("pt", "Infelizmente, não tenho acesso a essa base.", "apology", "Infelizmente"),
    ("fr", "Voici le JSON demandé :", "lead_in", "Voici"),
    ("fr", "Réponse : {}", "lead_in", "Réponse"),
    ("fr", "N'hésitez pas à me demander autre chose.", "closing", "N'hésitez pas"),
    ("fr", "N’hésitez pas si besoin.", "closing", "N’hésitez pas"),
    ("fr", "Le résultat au format JSON :", "description", "au format JSON"),
    ("fr", "Réponse finale : {}", "designation", "Réponse finale"),
    ("fr", "Par exemple : {}", "example", "Par exemple"),
    ("fr", "Utilisez ce modèle : {}", "example", "ce modèle :"),
    ("fr", "Ou bien, appelez la recherche :", "alternative", "Ou bien"),
    ("fr", "N'utilisez pas ce format :", "counter_example", "N'utilisez pas"),
    ("fr", "Ne pas utiliser de guillemets simples.", "counter_example", "Ne pas utiliser"),
    ("fr", "Ceci est faux : {}", "rejected", "faux"),
    ("fr", "Mauvaise réponse : {}", "rejected", "Mauvaise réponse"),
    ("fr", "Brouillon : {}", "draft", "Brouillon"),
    ("fr", "Première tentative :", "draft", "Première tentative"),
    ("fr", "En fait, l'identifiant est 9.", "correction", "En fait"),
    ("fr", "C'était une blague, laisse tomber.", "retraction", "C'était une blague"),
    ("fr", "Laissez tomber la version précédente.", "retraction", "Laissez tomber"),
    ("fr", "Désolé, je ne peux pas faire cela.", "refusal", "Désolé, je ne peux pas"),
    ("fr", "Je ne suis pas en mesure de répondre.", "refusal", "Je ne suis pas en mesure de"),
    ("fr", "Voulez-vous que j'ajoute le champ ?", "question", "Voulez-vous"),
    ("fr", "Dois-je inclure les dates ?", "question", "Dois-je"),
    ("fr", "Peut-être que la valeur est 2.", "hedge", "Peut-être"),
    ("fr", "Je pense que c'est correct.", "hedge", "Je pense que"),
    ("fr", "Au moins 3 éléments.", "bound", "Au moins"),
    ("fr", "Il y a plus de 10 lignes.", "bound", "plus de"),
    ("fr", "Il n'y a jamais de valeur nulle.", "negation", "jamais"),
    ("fr", "Demande de l'utilisateur : réserver un train.", "quoted_input", "Demande de l'utilisateur"),
    ("fr", "L'utilisateur a dit qu'il en voulait deux.", "quoted_input", "L'utilisateur a dit"),
    ("fr", "Ce qui précède est invalide.", "reference", "Ce qui précède"),
    ("fr", "Malheureusement, je n'ai pas accès à cette base.", "apology", "Malheureusement"),
    ("de", "Hier ist das JSON:", "lead_in", "Hier ist"),
    ("de", "Antwort: {}", "lead_in", "Antwort"),
    ("de", "Lass mich wissen, ob das passt.", "closing", "Lass mich wissen"),
    ("de", "Ich hoffe, das hilft!", "closing", "Ich hoffe, das hilft"),
    ("de", "Die Daten im JSON-Format:", "description", "im JSON-Format"),
    ("de", "Endgültige Antwort: {}", "designation", "Endgültige Antwort"),
    ("de", "Die richtige Antwort lautet:", "designation", "Die richtige Antwort lautet"),
    ("de", "Zum Beispiel: {}", "example", "Zum Beispiel"),
    ("de", "Etwa z. B. so: {}", "example", "z. B."),
    ("de", "Verwende diese Vorlage:", "example", "Vorlage"),
    ("de", "Alternativ kannst du suchen:", "alternative", "Alternativ"),
    ("de", "Verwende nicht dieses Format:", "counter_example", "Verwende nicht"),
    ("de", "Bitte nicht verwenden: {}", "counter_example", "nicht verwenden"),
    ("de", "Das ist falsch: {}", "rejected", "Das ist falsch"),
    ("de", "Ungültige Antwort: {}", "rejected", "Ungültige Antwort"),
    ("de", "Entwurf: {}", "draft", "Entwurf"),
    ("de", "Erster Versuch:", "draft", "Erster Versuch"),
    ("de", "Korrektur: das Feld ist eine Liste.", "correction", "Korrektur"),
    ("de", "War nur ein Scherz, vergiss es.", "retraction", "War nur ein Scherz"),
    ("de", "Vergiss es, nimm das andere.", "retraction", "Vergiss es"),
    ("de", "Es tut mir leid, ich kann nicht helfen.", "refusal", "Es tut mir leid, ich kann nicht"),
    ("de", "Dabei kann ich nicht helfen.", "refusal", "Dabei kann ich nicht helfen"),
    ("de", "Soll ich das Datum ergänzen?", "question", "Soll ich"),
    ("de", "Möchtest du eine zweite Version?", "question", "Möchtest du"),
    ("de", "Vielleicht ist es 5.", "hedge", "Vielleicht"),
    ("de", "Ich glaube, es ist richtig.", "hedge", "Ich glaube"),
    ("de", "Mindestens 3 Einträge.", "bound", "Mindestens"),
    ("de", "Es sind mehr als 10 Zeilen.", "bound", "mehr als"),
    ("de", "Das Feld ist nicht leer.", "negation", "nicht"),
    ("de", "Es gibt keine Werte.", "negation", "keine"),
    ("de", "Benutzeranfrage: buche einen Flug.", "quoted_input", "Benutzeranfrage"),
    ("de", "Der Benutzer schrieb, dass er zwei will.", "quoted_input", "Der Benutzer schrieb"),
    ("de", "Das obige ist ungültig.", "reference", "Das obige"),
    ("de", "Leider habe ich keinen Zugriff auf die Datenbank.", "apology", "Leider"),
    ("it", "Ecco il JSON:", "lead_in", "Ecco"),
    ("it", "Risposta: {}", "lead_in", "Risposta"),
    ("it", "Fammi sapere se va bene.", "closing", "Fammi sapere"),
    ("it", "Spero che sia utile!", "closing", "Spero che sia utile"),
    ("it", "I dati in formato JSON:", "description", "in formato JSON"),
    ("it", "Risposta finale: {}", "designation", "Risposta finale"),
    ("it", "Ad esempio: {}", "example", "Ad esempio"),
    ("it", "Un esempio di chiamata:", "example", "Un esempio"),
    ("it", "Oppure chiama la ricerca:", "alternative", "Oppure"),
    ("it", "Non usare questo formato:", "counter_example", "Non usare"),
    ("it", "Invece di null usa una lista vuota.", "counter_example", "Invece di"),
    ("it", "Questo è sbagliato: {}", "rejected", "sbagliato"),
    ("it", "Formato non valido: {}", "rejected", "non valido"),
    ("it", "Bozza: {}", "draft", "Bozza"),
    ("it", "Primo tentativo:", "draft", "Primo tentativo"),
    ("it", "In realtà l'id è 5.", "correction", "In realtà"),
    ("it", "Correzione: il campo è una lista.", "correction", "Correzione"),
    ("it", "Scherzavo, lascia perdere.", "retraction", "Scherzavo"),
    ("it", "Lascia perdere la versione di prima.", "retraction", "Lascia perdere"),
    ("it", "Mi dispiace, non posso farlo.", "refusal", "Mi dispiace, non posso"),
    ("it", "Non posso aiutarti con questa richiesta.", "refusal", "Non posso aiutarti"),
    ("it", "Vuoi che aggiunga la data?", "question", "Vuoi che"),
    ("it", "Devo includere il campo opzionale?", "question", "Devo includere"),
    ("it", "Forse il valore è 2.", "hedge", "Forse"),
    ("it", "Probabilmente è corretto.", "hedge", "Probabilmente"),
    ("it", "Almeno 3 elementi.", "bound", "Almeno"),
    ("it", "Al massimo 10 righe.", "bound", "Al massimo"),
    ("it", "Il campo non è vuoto.", "negation", "non"),
    ("it", "Richiesta dell'utente: prenota un volo.", "quoted_input", "Richiesta dell'utente"),
    ("it", "L'utente ha detto che ne vuole due.", "quoted_input", "L'utente ha detto"),
    ("it", "Quanto sopra non è valido.", "reference", "Quanto sopra"),
    ("it", "Purtroppo non ho accesso a quel database.", "apology", "Purtroppo"),
    ("ru", "Вот JSON:", "lead_in", "Вот"),
    ("ru", "Ответ: {}", "lead_in", "Ответ"),
    ("ru", "Дайте знать, если нужно что-то ещё.", "closing", "Дайте знать"),
    ("ru", "Надеюсь, это поможет!", "closing", "Надеюсь, это поможет"),
    ("ru", "Данные в формате JSON:", "description", "в формате JSON"),
    ("ru", "Окончательный ответ: {}", "designation", "Окончательный ответ"),
    ("ru", "Правильный ответ такой:", "designation", "Правильный ответ такой"),
    ("ru", "Например: {}", "example", "Например"),
    ("ru", "Пример вызова:", "example", "Пример вызова"),
    ("ru", "Используйте этот шаблон:", "example", "шаблон"),
    ("ru", "Или вызовите поиск:", "alternative", "Или"),
    ("ru", "Не используйте этот формат:", "counter_example", "Не используйте"),
    ("ru", "Контрпример: {}", "counter_example", "Контрпример"),
    ("ru", "Это неверно: {}", "rejected", "Это неверно"),
    ("ru", "Неправильный ответ: {}", "rejected", "Неправильный ответ"),
    ("ru", "Черновик: {}", "draft", "Черновик"),
    ("ru", "Исправление: поле — это список.", "correction", "Исправление"),
    ("ru", "На самом деле id равен 5.", "correction", "На самом деле"),
    ("ru", "Шучу, забудьте.", "retraction", "Шучу"),
    ("ru", "Забудьте об этом.", "retraction", "Забудьте об этом"),
    ("ru", "Извините, я не могу это сделать.", "refusal", "Извините, я не могу"),
    ("ru", "Я не могу помочь с этим запросом.", "refusal", "не могу помочь"),
    ("ru", "Хотите, чтобы я добавил дату?", "question", "Хотите"),
    ("ru", "Нужно ли включить поле?", "question", "Нужно ли"),
    ("ru", "Возможно, значение равно 2.", "hedge", "Возможно"),
    ("ru", "Наверное, это верно.", "hedge", "Наверное"),
    ("ru", "Не менее 3 элементов.", "bound", "Не менее"),
    ("ru", "Больше 10 строк.", "bound", "Больше"),
    ("ru", "Поле не пустое.", "negation", "не"),
    ("ru", "Запрос пользователя: забронируй рейс.", "quoted_input", "Запрос пользователя"),
    ("ru", "Пользователь написал, что хочет два.", "quoted_input", "Пользователь написал"),
    ("ru", "Вышесказанное неверно.", "reference", "Вышесказанное"),
    ("ru", "К сожалению, у меня нет доступа к базе.", "apology", "К сожалению"),
    ("es", "Ejemplo de respuesta: {}", "example", "Ejemplo de respuesta"),
    ("pt", "Não é bem a resposta, esquece.", "retraction", "Não é bem a resposta"),
    ("fr", "Ce n'est pas la vraie réponse : {}", "rejected", "n'est pas la vraie réponse"),
    ("fr", "Évitez d'utiliser des guillemets simples.", "counter_example", "Évitez d'utiliser"),
    ("de", "Das ist nicht die richtige Antwort: {}", "rejected", "nicht die richtige Antwort"),
    ("it", "Esempio di output: {}", "example", "Esempio di output"),
    ("ru", "Это не настоящий ответ: {}", "rejected", "не настоящий ответ"),
]


@pytest.mark.parametrize(
    ("language", "text", "category", "phrase"), FINDS, ids=[f"{lang}-{cat}-{phrase}" for lang, _, cat, phrase in FINDS]
)
def test_finds_the_cue_at_its_words(language: str, text: str, category: str, phrase: str) -> None:
    start = text.index(phrase)
    cues = lexicon().find(text)
    assert any(
        (c.start, c.end, c.category, c.language) == (start, start + len(phrase), category, language) for c in cues
    ), [(text[c.start : c.end], c.category, c.language) for c in cues]


AT_THE_END = [
    # (language, a whole output that is one cue, its category): the phrase ends the text, and a longer phrase of
    # the same table starts with it ("lo siento, no puedo …")
    ("es", "Lo siento", "apology"),
    ("fr", "Je ne peux pas aider", "refusal"),
    ("de", "Es tut mir leid", "apology"),
    ("it", "Mi dispiace", "apology"),
    ("pt", "Desculpe", "apology"),
    ("ru", "Извините", "apology"),
]


@pytest.mark.parametrize(("language", "text", "category"), AT_THE_END, ids=[f"{lang}-{t}" for lang, t, _ in AT_THE_END])
def test_finds_a_cue_that_ends_the_text(language: str, text: str, category: str) -> None:
    cues = lexicon().find(text)
    assert (0, len(text), category, language) in [(c.start, c.end, c.category, c.language) for c in cues]


BENIGN = [
    # (language, prose a model writes around an ordinary answer)
    ("es", "Aquí está el JSON que pediste:"),
    ("es", "¡Claro! Aquí tienes la respuesta en formato JSON:"),
    ("es", "Esta es la respuesta. Espero que te sirva; si necesitas algo más, avísame."),
    ("es", "Para evitar errores, usé comillas dobles y el campo `fecha` en formato ISO."),
    ("es", "El objeto incluye el nombre, la edad y una lista de etiquetas, tal como lo solicitaste."),
    ("pt", "Aqui está o JSON que você pediu:"),
    ("pt", "Claro! Segue a resposta em formato JSON:"),
    ("pt", "Espero que isso ajude. Se precisar de mais alguma coisa, é só avisar!"),
    ("pt", "Conforme solicitado, o objeto contém o nome, a idade e as etiquetas."),
    ("pt", "Segue o resultado, tal como pediu:"),
    ("fr", "Voici le JSON que vous avez demandé :"),
    ("fr", "Bien sûr ! Voici la réponse au format JSON :"),
    ("fr", "J'espère que cela vous aide. N'hésitez pas si vous avez besoin d'autre chose."),
    ("fr", "Voici l'objet, tel que demandé, avec le nom, l'âge et les étiquettes."),
    ("fr", "Le champ `date` est au format ISO pour éviter les ambiguïtés."),
    ("de", "Hier ist das JSON, das du angefragt hast:"),
    ("de", "Gerne! Hier ist die Antwort im JSON-Format:"),
    ("de", "Ich hoffe, das hilft. Wenn du möchtest, kann ich noch Felder ergänzen."),
    ("de", "Wie gewünscht enthält das Objekt den Namen, das Alter und die Tags."),
    ("de", "Um Fehler zu vermeiden, habe ich doppelte Anführungszeichen verwendet."),
    ("it", "Ecco il JSON che hai chiesto:"),
    ("it", "Certo! Ecco la risposta in formato JSON:"),
    ("it", "Spero che sia utile. Se vuoi, posso aggiungere altri campi."),
    ("it", "Come richiesto, l'oggetto contiene il nome, l'età e il tipo di utente."),
    ("it", "Fammi sapere se hai bisogno di altro."),
    ("ru", "Вот JSON, который вы просили:"),
    ("ru", "Конечно! Вот ответ в формате JSON:"),
    ("ru", "Надеюсь, это поможет. Если хотите, я могу добавить ещё поля."),
    ("ru", "Как вы просили, объект содержит имя, возраст и список тегов."),
    ("ru", "Если что-то не так, дайте знать."),
    ("es", "Nota: JSON no admite comentarios, así que los he quitado. Cada entrada del array es un pedido."),
    ("pt", "Observação: JSON não aceita comentários, então eu os removi. Devo observar que o email é opcional."),
    ("fr", "Remarque : le JSON n'accepte pas les commentaires, je les ai donc supprimés."),
    ("de", "Hinweis: JSON unterstützt keine Kommentare. Falls ich etwas missverstanden haben sollte, sag Bescheid."),
    ("it", "Nota: JSON non supporta i commenti. Il tipo di utente è admin; devo dire che l'email è facoltativa."),
    ("ru", "Примечание: JSON не поддерживает комментарии, поэтому я их удалил. Такой формат подходит для API."),
]


@pytest.mark.parametrize(("language", "text"), BENIGN, ids=[f"{lang}-{text[:40]}" for lang, text in BENIGN])
def test_answer_prose_has_no_exclusion_cue(language: str, text: str) -> None:
    found = [(text[c.start : c.end], c.category, c.language) for c in lexicon().find(text)]
    assert [f for f in found if f[1] in EXCLUSIONS] == [], found


ENGLISH_ANSWER_PROSE = [
    "Here is the JSON for your request:",
    "Sure! The answer is below, in JSON format.",
    "I used double quotes to avoid parse errors, and the date is in ISO format.",
    "Hope this helps. Let me know if anything else is needed.",
    "The object has a name, an age, a list of tags and a nested address.",
]


@pytest.mark.parametrize("text", ENGLISH_ANSWER_PROSE, ids=[t[:40] for t in ENGLISH_ANSWER_PROSE])
def test_these_tables_add_no_exclusion_cue_to_english_answer_prose(text: str) -> None:
    found = [
        (text[c.start : c.end], c.category, c.language)
        for c in lexicon().find(text)
        if c.language in LANGUAGES and c.category in EXCLUSIONS
    ]
    assert found == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_category_has_at_least_three_rows(language: str) -> None:
    phrases = importlib.import_module(f"resilient_parse.text.lexicon.{language}").PHRASES
    # a cue category has three phrasings at least; the value words (yes, no, arithmetic) one
    need = {c: 1 if c in VALUE_WORDS else 3 for c in CATEGORIES}
    assert {c: len(phrases.get(c, ())) for c in CATEGORIES if len(phrases.get(c, ())) < need[c]} == {}


VALUE_WORDS = frozenset({"yes", "no", "operation"})


@pytest.mark.parametrize("language", LANGUAGES)
def test_tables_hold_only_data(language: str) -> None:
    module = importlib.import_module(f"resilient_parse.text.lexicon.{language}")
    assert language == module.LANGUAGE
    assert module.SCRIPT == "spaced"
    assert [name for name, value in vars(module).items() if not name.startswith("__") and callable(value)] == []


@pytest.mark.parametrize(
    ("language", "minus", "scale", "value"),
    [
        ("es", "menos", "millones", 10**6),
        ("pt", "menos", "milhões", 10**6),
        ("fr", "moins", "milliards", 10**9),
        ("de", "minus", "Tausend", 10**3),
        ("it", "meno", "mila", 10**3),
        ("ru", "минус", "миллионов", 10**6),
    ],
)
def test_numbers_words(language: str, minus: str, scale: str, value: int) -> None:
    lex = lexicon()
    assert lex.decimal_marks[language] == ","
    assert minus in lex.minus
    assert lex.scales[scale.lower()] == value


@pytest.mark.parametrize("dozen", ["docena", "dúzia", "douzaine", "dutzend", "dozzina", "дюжина"])
def test_a_dozen_is_twelve(dozen: str) -> None:
    assert lexicon().scales[dozen] == 12
