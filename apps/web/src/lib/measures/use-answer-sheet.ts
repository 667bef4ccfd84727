import { useCallback, useState } from 'react';

/** The item paths a check refused (`answers.<n>`), as item indexes. */
const indexesOf = (problems: { path: string }[]) => problems.map((p) => Number(p.path.split('.')[1])).filter((n) => !Number.isNaN(n));

/**
 * A questionnaire's answers being filled in (the patient's page and the in-session dialog): one per item,
 * null until chosen, and the items a check found unanswered, each cleared once it is answered.
 */
export function useAnswerSheet(count: number) {
  const [answers, setAnswers] = useState<(number | null)[]>(() => Array(count).fill(null));
  const [missing, setMissing] = useState<Set<number>>(new Set());
  const answer = useCallback((i: number, v: number) => {
    setAnswers((prev) => prev.map((x, j) => (j === i ? v : x)));
    setMissing((prev) => {
      const next = new Set(prev);
      next.delete(i);
      return next;
    });
  }, []);
  /** Empty again, for a questionnaire of `items` items. */
  const reset = useCallback((items: number) => {
    setAnswers(Array(items).fill(null));
    setMissing(new Set());
  }, []);
  /** Marks the refused items as missing; answers their indexes. */
  const markMissing = useCallback((problems: { path: string }[]) => {
    const idx = indexesOf(problems);
    setMissing(new Set(idx));
    return idx;
  }, []);
  return { answers, missing, answered: answers.filter((a) => a !== null).length, answer, reset, markMissing };
}
