// Size limits, checked where data comes in and never on read, so older records stay readable.

export const LIMITS = {
  titleChars: 120,
  descriptionChars: 300,
  bodyBytes: 16 * 1024,
  links: 32,
  linkChars: 120,
  anchors: 32,
  anchorChars: 120,
  tags: 32,
  tagChars: 40,
  reasonChars: 300,
  factKeyChars: 120,
  keyChars: 120,
  queryChars: 1000,
  provenanceFieldChars: 200,
  evidence: 16,
  archivedVersions: 5,
  listDefault: 50,
  listMax: 200,
  recallDefault: 10,
  recallMax: 50,
} as const;
