"""Portuguese cue phrases, Brazilian and European (the categories and the phrase grammar:
`resilient_parse.text.lexicon`).

Spaced: phrases match as whole words; accented letters are word characters, so the unaccented spellings models
also write ("nao", "versao", "invalido") and the European spellings ("correcta", "facto", "utilizador") are listed
beside the Brazilian ones."""

LANGUAGE = "pt"
SCRIPT = "spaced"
DECIMAL_MARK = ","
MINUS = ("menos",)
SCALES = {
    "mil": 10**3,
    "milhão": 10**6,
    "milhao": 10**6,
    "milhões": 10**6,
    "milhoes": 10**6,
    "bilhão": 10**9,
    "bilhao": 10**9,
    "bilhões": 10**9,
    "bilhoes": 10**9,
    "bilião": 10**12,
    "biliões": 10**12,
    "trilhão": 10**12,
    "trilhões": 10**12,
    "dúzia": 12,
    "duzia": 12,
    "dúzias": 12,
    "duzias": 12,
}
PHRASES = {
    "lead_in": (
        "sem problema(s|)",
        "(aqui|cá) (está|esta|estão|estao|tem|tens|vai|vão|vao|segue|seguem)",
        "(segue|seguem) (abaixo|em seguida|a seguir|o|a|os|as|)",
        "eis (aqui|)",
        "(esta|este|essa|esse) é (a|o|minha|meu) (resposta|resultado|saída|saida|json|solução|solucao)",
        "(a|o|minha|meu) (resposta|resultado|saída|saida|json) (é|seria|será|sera|fica|ficaria)",
        "(resposta|resultado|saída|saida|solução|solucao)",
        "(para|conforme|segundo) (o seu|seu|o teu|a sua|sua|a tua|este|esta) (pedido|solicitação|solicitacao|pergunta)",
        "(conforme|como|que) (você |voce |tu |)(pediu|solicitou|pediste|solicitaste|queria|querias)",
        "(conforme|como) (pedido|solicitado|indicado)",
        "(claro|com certeza|certamente|perfeito|pronto|com prazer|sem problemas)",
        "(a seguir|abaixo)",
        "(ficaria|fica|ficará|ficara) (assim|desta forma|dessa forma)",
    ),
    "closing": (
        "espero que (isso|isto|esta resposta|este exemplo|) (ajude|te ajude|lhe ajude|o ajude|a ajude|seja útil"
        "|seja util|sirva)",
        "espero ter (ajudado|sido útil|sido util)",
        "(não hesite|nao hesite|não hesites|nao hesites) em",
        "(fique|fica|sinta-se|sinta se|sente-te) à (vontade|vontade para)",
        "(fique|fica|sinta-se|sinta se) a vontade",
        "(me avise|avise-me|me diga|diga-me|me fale|fale-me|avisa-me|diz-me) se",
        "(qualquer|quaisquer) (dúvida|duvida|dúvidas|duvidas|questão|questao|coisa)",
        "se (precisar|precisares|quiser|quiseres|preferir|preferires|desejar|tiver dúvidas|tiver duvidas|tiver"
        " mais perguntas|tiveres dúvidas)",
        "(estou|fico|ficamos|estamos) à (disposição|disposicao)",
        "se (você|voce|o senhor|a senhora) (quiser|quer|preferir|prefere|desejar|deseja|precisar|tiver)",
        "(estou|fico) a (disposição|disposicao)",
        "(posso|podemos) ajudar (em|com) mais (alguma coisa|algo)",
        "(bom trabalho|boa sorte|abraço|abraços)",
    ),
    "description": (
        "(em|no) formato json",
        "(em|como) (um |)(objeto |objecto |)json",
        "json (válido|valido)",
        "(no|com o) formato (solicitado|pedido|exigido|esperado|especificado|indicado|desejado|seguinte|correto"
        "|correcto|requerido)",
        "(na|com a) (estrutura|forma) (solicitada|pedida|exigida|esperada|especificada|indicada|seguinte)",
        "(conforme|segundo|de acordo com|seguindo) o (esquema|schema)",
    ),
    "designation": (
        "(resposta|versão|versao|saída|saida|resultado|json|objeto|chamada|valor|solução|solucao) (final|correta"
        "|correto|correcta|correcto|corrigida|corrigido|atualizada|atualizado|actualizada|actualizado|revisada"
        "|revisado|revista|revisto|definitiva|definitivo|certa|certo|verdadeira|verdadeiro|exata|exato|real)",
        "(a|minha) resposta (final|correta|correcta|definitiva|certa) (é|e|seria|será|sera)",
        "(a|o|minha|meu) (resposta|resultado|saída|saida) (é|seria|será|sera)",
        "(a|o) (verdadeira|verdadeiro|boa|bom) (resposta|versão|versao|resultado|json)",
        "(final|definitivo|definitiva)",
        "em definitivo",
    ),
    "example": (
        "(apenas|só|somente|simplesmente) (um|uma) (exemplo|ilustração|ilustracao|amostra|modelo|template|demo)",
        "(suponha|suponhamos|digamos|imagine|imaginemos|imagina)",
        "por exemplo",
        "(um|outro|como|de|a título de|a titulo de|para dar um) exemplo",
        "exemplo(s|)",
        "exemplo(s|) de (resposta|saída|saida|json|chamada|entrada|uso|resultado|objeto|código|codigo)",
        "(ex.|ex:|p. ex.|p.ex.|e.g.)",
        "(a título|a titulo|para fins|apenas para fins) (ilustrativo|ilustrativos|de ilustração|de ilustracao"
        "|de exemplo|exemplificativo|exemplificativos)",
        "(ilustrativo|ilustrativa|exemplificativo|exemplificativa)(s|)",
        "(ilustração|ilustracao)",
        "(hipotético|hipotetico|hipotética|hipotetica)(s|)",
        "(fictício|ficticio|fictícia|ficticia|inventado|inventada)(s|)",
        "(amostra|amostras)",
        "(modelo|template) (de exemplo|a preencher|para preencher|genérico|generico)",
        "(de teste|de brinquedo)",
        "(marcador de posição|marcador de posicao|espaço reservado|espaco reservado)",
        "algo (como|assim|parecido com|do tipo|do género|do genero)",
        "(seria|ficaria|se pareceria) (algo |)(assim|como isto|como isso)",
        "(demo|demonstração|demonstracao)",
    ),
    "alternative": (
        "alternativa(s|)",
        "alternativamente",
        "como alternativa",
        "outra (opção|opcao|alternativa|forma|maneira|versão|versao|possibilidade|solução|solucao|abordagem|variante)",
        "outro (caminho|método|metodo|modo|jeito)",
        "(opção|opcao) (a|b|c|d|1|2|3|um|dois|três|tres)",
        "(opções|opcoes|variantes)",
        "ou (então|entao|ainda|em vez disso|talvez|quem sabe)",
        "(poderia|poderias|podia|podias) (também |tambem |)(tentar|usar|utilizar|chamar|experimentar)",
        "(pode|podes) também (tentar|usar|utilizar|chamar|experimentar)",
        "(que tal|e que tal|e se)",
    ),
    "counter_example": (
        "(sob nenhuma circunstância|sob nenhuma circunstancia|em nenhuma hipótese|em nenhuma hipotese|de forma"
        " nenhuma|de jeito nenhum|em caso algum)",
        "(não|nao|nunca) (faça|faca|faças|facas|fazer) (isso|isto)",
        "(não|nao) (use|usar|utilize|utilizar|retorne|retornar|devolva|devolver|envie|enviar|chame|chamar|inclua"
        "|incluir|produza|produzir|escreva|escrever|faça|faca|fazer|execute|executar|gere|gerar|coloque|colocar"
        "|copie|copiar|responda|imite)",
        "(não|nao) (uses|utilizes|retornes|devolvas|envies|chames|incluas|produzas|escrevas|faças|facas|executes"
        "|geres|coloques|copies)",
        "nunca (use|usar|utilize|utilizar|retorne|devolva|inclua|faça|faca|fazer|uses|utilizes|incluas)",
        "(não|nao) (se deve|deve|deves|devem|é para) (usar|utilizar|retornar|devolver|enviar|chamar|incluir|produzir"
        "|escrever|fazer|executar|gerar|colocar)",
        "(não|nao) deve ser (usado|usada|utilizado|utilizada|retornado|retornada|devolvido|devolvida|enviado"
        "|chamado|incluído|incluido)",
        "nunca",
        "(evite|evita|evitem|evitar) (usar|utilizar|incluir|retornar|devolver|colocar|escrever|adicionar|gerar"
        "|enviar|chamar|copiar)",
        "contra(-| |)exemplo(s|)",
        "(mau|maus|péssimo|pessimo) exemplo(s|)",
        "exemplo(s|) (ruim|ruins|mau|maus|negativo|negativos|incorreto|incorretos|errado|errados|a evitar|do que não)",
        "(o que|o quê) (não|nao) (fazer|se deve fazer|deve fazer)",
        "(em vez de|ao invés de|ao inves de|em lugar de)",
        "(não|nao) (assim|desta forma|dessa forma|desta maneira)",
    ),
    "rejected": (
        "(é|era|seria|são|sao|seriam) (perigoso|perigosa|inseguro|insegura|prejudicial|destrutivo|destrutiva"
        "|arriscado|arriscada|uma má ideia|uma ma ideia)",
        "(errado|errada|errados|erradas)",
        "(incorreto|incorreta|incorretos|incorretas|incorrecto|incorrecta|incorrectos|incorrectas)",
        "(inválido|invalido|inválida|invalida|inválidos|invalidos|inválidas|invalidas)",
        "(equivocado|equivocada|errôneo|erroneo|errônea|erronea)",
        "(proibido|proibida|proibidos|proibidas)",
        "(rejeitado|rejeitada|rejeitados|rejeitadas|recusado|recusada)",
        "(não|nao) (é |está |)(válido|valido|válida|valida|correto|correta|correcto|correcta|certo|certa|permitido"
        "|permitida|aceitável|aceitavel|a resposta|a resposta certa|a resposta correta)",
        "(está|esta|estaria|é) (mal|errado|errada)",
        "(é|foi|seria|era) um erro",
        "(inaceitável|inaceitavel|inadmissível|inadmissivel)",
        "(resposta|saída|saida|versão|versao|chamada|tentativa|opção|opcao|solução|solucao) (errada|incorreta"
        "|incorrecta|inválida|invalida|equivocada|ruim|má|falha|falhada|quebrada|malformada|rejeitada|proibida)",
        "(json|resultado|exemplo|objeto|valor) (errado|incorreto|incorrecto|inválido|invalido|equivocado|ruim|mau"
        "|quebrado|malformado|rejeitado|proibido)",
        "(não|nao) (faça|faca) isso",
    ),
    "draft": (
        "(rascunho|rascunhos)",
        "(primeira|primeiro) (tentativa|versão|versao|rascunho|ideia|abordagem|proposta|esboço|esboco|passo)",
        "(versão|versao|proposta|resposta) (preliminar|provisória|provisoria|inicial)",
        "(esboço|esboco)",
        "(provisório|provisorio|provisória|provisoria|provisoriamente)",
        "(tentativo|tentativa inicial)",
        "(trabalho em andamento|trabalho em curso|em construção|em construcao)",
        "(eu |)(pensei em|considerei|cheguei a pensar)",
        "(eu |)ia (usar|colocar|responder|devolver|dizer|escrever|sugerir|propor)",
    ),
    "correction": (
        "em vez disso",
        "(correção|correcao|correcção|retificação|retificacao|rectificação)",
        "(corrigido|corrigida|corrigidos|corrigidas)",
        "(na verdade|na realidade|aliás|de facto|de fato)",
        "(espera|espere|esperem)(,|!)",
        "(um momento|um instante|pensando bem|pensando melhor)",
        "ou melhor",
        "(errei|me enganei|enganei-me|eu me enganei|cometi um erro|cometi um engano)",
        "(deixe-me|deixa-me|deixe me|permita-me) (corrigir|consertar|arrumar|retificar)",
        "(atualizado|atualizada|actualizado|actualizada|revisado|revisada|consertado|consertada)",
        "(corrigindo|retificando)",
    ),
    "retraction": (
        "(é|e|era|foi|só|so|só uma|so uma) (uma |)brincadeira",
        "brincadeira",
        "(só |so |)(estou|estava|tô|to) (brincando|a brincar)",
        "(esquece|esqueça|esqueca|esquecei)",
        "(esquece|esqueça|esqueca) (isso|isto|o que eu disse|o anterior|tudo isso)",
        "(deixa|deixe) (pra|para) (lá|la)",
        "(ignore|ignora|desconsidere|desconsidera) (isso|isto|o anterior|o acima|a resposta anterior|o que eu disse)",
        "(apaga|apague|risca|risque|descarta|descarte) (isso|isto|o anterior)",
        "retiro o que (eu |)(disse|escrevi)",
        "(não|nao) (ligue|leve em conta|considere)",
        "(não|nao) (é|era) (bem|realmente|na verdade) (a|minha) resposta",
        "desisti (disso|dessa ideia|da ideia)",
    ),
    "refusal": (
        "(desculpe|desculpa|lamento|sinto muito|perdão|infelizmente)(,|) (mas |)(não|nao) (posso|consigo|podemos)",
        "(não|nao) (posso|consigo|podemos|sou capaz de|tenho como) (ajudar|te ajudar|lhe ajudar|ajudá-lo|ajudar-te"
        "|fazer|atender|cumprir|fornecer|realizar|executar|completar|processar|responder|gerar|criar|continuar"
        "|prosseguir|compartilhar|partilhar|auxiliar)",
        "(me recuso|recuso-me|eu me recuso|nos recusamos)",
        "(devo|preciso|tenho que|tenho de) (recusar|declinar|me recusar)",
        "(não|nao) (vou|vamos|irei) (fazer|ajudar|gerar|executar|fornecer|cumprir|repetir|enviar|escrever|partilhar"
        "|compartilhar) (isso|isto|)",
        "(prefiro|preferiria) (não|nao)",
        "(não|nao) me é possível",
        "(não|nao) (estou|sou) (autorizado|autorizada|permitido)",
        "como (uma ia|ia|inteligência artificial|inteligencia artificial|modelo de linguagem|assistente de ia)",
        "contra (as minhas|minhas|as nossas|nossas) (diretrizes|directrizes|políticas|politicas|regras|normas)",
        "(pedido|solicitação|solicitacao) (negado|negada|recusado|recusada)",
        "(não|nao) é algo (com que|em que|que) (eu |)(possa|posso) (ajudar|fazer)",
        "(não|nao) posso (fazer isso|fazer isto|atender a esse pedido)",
    ),
    "question": (
        "(quer|queres|gostaria|gostarias|deseja|desejas|prefere|preferes) que eu",
        "(quer|queres|prefere|preferes) que",
        "(você|voce) (quer|gostaria|deseja|prefere)",
        "(você|voce|tu) (queria|querias) dizer",
        "(devo|devemos|eu deveria|deveria eu|deveríamos|deveriamos) (usar|incluir|adicionar|acrescentar|retornar"
        "|devolver|utilizar|mudar|alterar|fazer|continuar|prosseguir|gerar|criar|chamar|executar|seguir)",
        "(você |voce |tu |)(quis|quiseste) dizer",
        "(podes|poderia|poderias|pode) (esclarecer|confirmar|especificar|detalhar|me dizer|dizer-me|precisar)",
        "(é|seria) isso (que|o que)",
        "qual (você prefere|voce prefere|preferes|prefere|opção|opcao|delas|deles)",
        "(te|lhe) parece (bem|bom)",
        "(tudo bem|ok) se eu",
    ),
    "hedge": (
        "talvez",
        "(provavelmente|possivelmente|presumivelmente|aparentemente|supostamente)",
        "(acho|creio|penso|suponho|acredito|imagino|diria|desconfio) que",
        "(acho|creio|suponho)",
        "(me |)parece (que|ser)",
        "(não|nao) (tenho|tenho a) (certeza|certeza absoluta)",
        "(não|nao) (estou|estou bem) (seguro|segura|certo|certa)",
        "(não|nao) sei se",
        "(aproximadamente|mais ou menos|cerca de)",
        "(de certa forma|de certo modo|meio que|tipo assim)",
        "(pode|poderia) ser",
        "(é|e) (possível|possivel|provável|provavel) que",
        "(em princípio|em principio|em teoria|a princípio|a principio)",
        "(quase certamente|em geral|geralmente|na maioria)",
        "(parece|pareceria)",
        "(não|nao) (posso|consigo) (garantir|assegurar|confirmar|verificar)",
        "(quem sabe|se calhar|porventura)",
    ),
    "apology": (
        "(desculpe|desculpa|desculpe-me|desculpa-me|perdão|perdao|lamento|sinto muito|peço desculpas|peco desculpas)",
        "(infelizmente|lamentavelmente)",
        "(as minhas|minhas) desculpas",
        "como (uma ia|ia|inteligência artificial|inteligencia artificial|modelo de linguagem|assistente de ia)",
    ),
    "bound": (
        "(pelo menos|ao menos|no mínimo|no minimo|no máximo|no maximo|quando muito)",
        "(mais|menos|maior|menor) (de|que|do que)",
        "(superior|inferior|igual ou maior|igual ou menor|maior ou igual|menor ou igual) (a|que|do que)",
        "(não|nao) (mais|menos) (de|que|do que)",
        "(até|entre|quase|cerca de|perto de|por volta de|aproximadamente|acima de|abaixo de|além de|alem de"
        "|circa|uns|umas)",
        "ou (mais|menos)",
        "(máximo|maximo|mínimo|minimo|máx|mín)",
        "no mais tardar",
    ),
    "negation": (
        "(não|nao)",
        "(nunca|jamais)",
        "(nem|tampouco|nem sequer)",
        "(nenhum|nenhuma|nenhuns|nenhumas)",
        "(nada|ninguém|ninguem)",
        "sem",
    ),
    "reference": (
        "o (anterior|acima|de cima|precedente)",
        "(a|os|as) (anterior|anteriores|acima|de cima|precedente)",
        "(o|a) (json|chamada|saída|saida|resposta|objeto|objecto|exemplo|versão|versao|resultado) (anterior|acima"
        "|de cima|precedente)",
        "(este|esse|esta|essa|aquele|aquela) (json|chamada|saída|saida|resposta|objeto|objecto|versão|versao"
        "|resultado)",
        "(isto|isso|este|esse|esta|essa|aquilo)",
    ),
    "quoted_input": (
        "o usuário mandou",
        "o usuário enviou",
        "você mandou",
        "(pedido|solicitação|solicitacao|pergunta|entrada|mensagem|consulta|prompt|requisição|requisicao|texto) do"
        " (usuário|usuario|utilizador|cliente)",
        "o (usuário|usuario|utilizador) (disse|escreveu|perguntou|pediu|solicitou|quer|deseja|pede|enviou)",
        "(você|voce|tu) (disse|disseste|escreveu|escreveste|perguntou|perguntaste|enviou|enviaste)",
        "(anteriormente|antes) (você|voce|tu) (disse|disseste|escreveu|escreveste)",
        "(entrada|pedido|mensagem|pergunta|consulta|solicitação|solicitacao|texto) (original|fornecida|fornecido"
        "|dada|dado|de entrada)",
        "(entrada|pedido|pergunta|consulta|solicitação|solicitacao|instrução|instrucao)( |):",
        "(citando|cito|repetindo o que)",
    ),
    "operation": (
        "(a |)metade",
        "(o |)dobro",
        "(o |)triplo",
        "(ao quadrado|raiz de)",
    ),
    "yes": ("sim",),
    "no": (
        "não",
        "nao",
    ),
}

WORDS = {
    # a one-letter word, read only between words (`plain_lists`)
    "and": ("e",),
    "or": ("ou",),
    "null": ("nenhum", "nenhuma"),
    "negating_prefixes": ("in", "im", "des", "anti", "não"),
    "key_negations": ("não", "nao", "sem", "nunca"),
}
