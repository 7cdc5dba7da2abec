// What the embedding worker reads from a model folder besides its ONNX file: config.json (the
// model's positions) and the tokenizer (tokenizer.json and tokenizer_config.json, through
// @huggingface/tokenizers, which transformers.js's tokenizer classes wrap without changing how
// ids are made). The rules follow transformers.js's, so a folder it loads loads here the same.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Encoder } from './tokenWindows';

type Json = Record<string, unknown>;

interface Tokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): { ids: number[] };
  token_to_id(token: string): number | undefined;
}

export interface LoadedTokenizer {
  encoder: Encoder;
  /** The id padded rows are filled with (the pad token, else the end-of-sequence token, else 0). */
  padId: number;
  /** tokenizer_config.json's model_max_length (Infinity when absent). */
  maxLength: number;
}

function readJson(folder: string, file: string): Json {
  const path = join(folder, file);
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${path} is not a JSON object`);
  return parsed as Json;
}

/** config.json's max_position_embeddings (Infinity when absent). */
export function readModelConfig(folder: string): { maxPositions: number } {
  const positions = readJson(folder, 'config.json').max_position_embeddings;
  return { maxPositions: typeof positions === 'number' && positions > 0 ? positions : Infinity };
}

/** A special token as tokenizer_config.json names it: a string or an AddedToken object. */
function tokenFromConfig(config: Json, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const item = config[key];
    if (typeof item === 'string' && item) return item;
    if (typeof item === 'object' && item !== null && (item as Json).__type === 'AddedToken')
      return String((item as Json).content);
  }
  return undefined;
}

/** The folder's tokenizer, loaded with the @huggingface/tokenizers that `resolveFrom` finds. */
export function loadTokenizer(resolveFrom: NodeRequire, folder: string): LoadedTokenizer {
  const json = readJson(folder, 'tokenizer.json');
  const config = readJson(folder, 'tokenizer_config.json');
  const { Tokenizer } = resolveFrom('@huggingface/tokenizers') as {
    Tokenizer: new (json: Json, config: Json) => Tokenizer;
  };
  const tokenizer = new Tokenizer(json, config);
  const encode = (text: string, specials: boolean): number[] =>
    tokenizer.encode(text, { add_special_tokens: specials }).ids;
  const empty = encode('', true);
  const padToken = tokenFromConfig(config, 'pad_token', 'eos_token');
  const maxLength = config.model_max_length;
  return {
    encoder: {
      body: (text) => encode(text, false),
      prefix: empty.length >= 2 ? empty.slice(0, 1) : [],
      suffix: empty.length >= 2 ? empty.slice(1) : empty,
    },
    padId: (padToken === undefined ? undefined : tokenizer.token_to_id(padToken)) ?? 0,
    maxLength: typeof maxLength === 'number' && maxLength > 0 ? maxLength : Infinity,
  };
}
