// The WordPiece vocabulary and tokenizer files of the generated test models: the BERT special
// tokens, every single character (whole-word and "##" continuation, so any ASCII text tokenizes
// without [UNK]), a few common suffixes and a few hundred common English and engineering words.

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

const CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const SUFFIXES = [
  's',
  'es',
  'ed',
  'ing',
  'er',
  'ers',
  'ly',
  'tion',
  'tions',
  'ment',
  'ments',
  'able',
  'ity',
  'al',
  'ize',
  'ized',
  'ness',
  'less',
  'ful',
  'ive',
];

const WORDS = `
the of and to in is that for it as was with be by on not he this are or his from at which but have an
they you were her she there one all we their has been would will can if more when what so no out up
about into than them some could only other new time these two may then do first any my now such like
our over also did many before must through back where most years way should because each just those
how too little good very make well still own see men work long here get both between life being under
never day same another know while last might us great old year off come since against go came right
used take three states himself few house use during without again place around however home small
found thought went say part once general high upon school every don does got united left number course
war until always away something fact though water less public put think almost hand enough far took
head yet government system better set told nothing night end why called didn eyes find going look asked
later knew point next program city business give group toward young days let room president side social
given present several order national second possible rather per face among form important often things
looked early white case large become big need four within felt children along saw best church ever
least power development light thought family interest want members mind country area others done turned
although open problem god service certain kind different thus began door help means sense whole matter
perhaps itself york times law human line above name example action company hands local show whether
five history gave today either act feet across taken past quite anything seen having death experience
body word half really week field car words already information tell together college shall money period
held keep sure real probably free seems political cannot behind miss question air office making brought
whose special major heard problems federal became study ago moment available known result street
economic boy reason change position south board individual job society areas west close turn love
community true court force full seem am front feel third stage black level death
api apis server client request response database query index cache memory storage disk file files
folder path config configuration settings setting option options deploy deployment release version
build builds test tests testing bug bugs fix fixed error errors exception failure fails failed crash
crashes log logs logging metric metrics alert alerts monitor monitoring incident incidents outage
postmortem runbook decision decisions adr rfc design architecture service services cluster node nodes
pod pods container containers docker image images kubernetes helm chart terraform module modules
resource resources provider variable variables output outputs network networking dns http https
tls certificate certificates secret secrets token tokens key keys auth authentication authorization
user users account accounts role roles permission permissions policy policies access read write
commit branch merge pull push repository repo code source function functions method class object
type types interface schema migration migrations table tables column columns row rows sql postgres
mysql sqlite redis kafka queue queues message messages event events stream streams worker workers
thread threads process processes cpu latency throughput timeout timeouts retry retries backoff rate
limit limits quota scale scaling replica replicas load balancer ingress gateway proxy endpoint
endpoints route routes backup backups restore rollback rollout canary feature flag flags pipeline ci
cd workflow workflows job jobs step steps stage stages artifact artifacts package packages dependency
dependencies upgrade downgrade patch security vulnerability audit compliance encryption encrypted
region zone availability cloud aws gcp azure bucket buckets volume volumes snapshot snapshots vector
vectors embedding embeddings model models search recall ranking score scores chunk chunks document
documents markdown heading headings section sections status context consequences alternatives
rejected accepted superseded deprecated proposed owner team teams oncall pager escalation timeline
root cause impact mitigation action items lesson lessons learned procedure manual guide readme
changelog install installation setup start stop restart run running runs slow fast memory leak
garbage collection heap stack trace debug debugging profile profiling benchmark benchmarks
`;

/** The vocabulary in id order; `size` pads it with "[unusedN]" tokens. */
export function buildVocabulary(size?: number): string[] {
  const tokens: string[] = [...SPECIAL_TOKENS];
  const seen = new Set<string>(tokens);
  const add = (t: string): void => {
    if (!seen.has(t)) {
      seen.add(t);
      tokens.push(t);
    }
  };
  for (const c of CHARS + PUNCTUATION) add(c);
  for (const c of CHARS) add(`##${c}`);
  for (const s of SUFFIXES) add(`##${s}`);
  for (const w of WORDS.split(/\s+/)) if (w) add(w);
  if (size !== undefined) {
    if (size < tokens.length) throw new Error(`vocabulary size ${size} is below the ${tokens.length} built-in tokens`);
    for (let i = 0; tokens.length < size; i++) add(`[unused${i}]`);
  }
  return tokens;
}

/** tokenizer.json in the Hugging Face `tokenizers` format (BERT uncased, WordPiece). */
export function tokenizerJson(vocab: string[]): unknown {
  const id = (t: string): number => vocab.indexOf(t);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

export function tokenizerConfigJson(maxLength: number): unknown {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: maxLength,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
    strip_accents: null,
    tokenize_chinese_chars: true,
  };
}
