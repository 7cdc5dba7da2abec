import { adversarialSection } from './bench/adversarialBench';
import { figureProblems } from './bench/result';
const s = adversarialSection({ quick: true, smallBytes: 2048, doublings: 3, reps: 1 });
for (const f of s.figures) if (f.met === false) console.log('NO', f.name, f.ratio?.toFixed(1));
console.log(figureProblems(s).length, 'problems');
