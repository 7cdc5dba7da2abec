// GitHub's line anchors in a link's fragment. A leaf of its own: extraction leaves them out of
// heading references and target.ts reads their range, without the two importing each other.

/** GitHub's line anchors: `L10`, `L10-L20`, `L10-20`, and with columns as permalinks write them (`L152C1-L153C1`). */
export const LINE_ANCHOR = /^L(\d+)(?:C\d+)?(?:-L?(\d+)(?:C\d+)?)?$/;
