import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ASSESSMENT_RULES,
  drawAssessment,
  EXPERIENCE_QUESTION,
  findQuestion,
  QUESTION_BANK,
  scoreAssessment,
  type DrawnQuestion,
} from './appropriateness.js';

const PROPERTY_RUNS = { seed: 20261126, numRuns: 200 };

/** Answers every drawn question: the right answer for the first `right` scored ones, a wrong one after. */
function answer(drawn: readonly DrawnQuestion[], right: number): Record<string, string> {
  const answers: Record<string, string> = {};
  drawn.forEach(({ id, option_ids: optionIds }, index) => {
    const correct = findQuestion(id)!.correct;
    answers[id] =
      correct === null ? 'few' : index < right ? correct : optionIds.find((option) => option !== correct)!;
  });
  return answers;
}

describe('the appropriateness assessment', () => {
  it('every question in the bank has one right answer among four distinct options', () => {
    expect(new Set(QUESTION_BANK.map((question) => question.id)).size).toBe(QUESTION_BANK.length);
    for (const question of QUESTION_BANK) {
      expect(question.options).toHaveLength(4);
      expect(new Set(question.options.map((option) => option.text)).size).toBe(4);
      expect(question.options.filter((option) => option.id === question.correct)).toHaveLength(1);
    }
  });

  it('covers what the issue asks: total loss, no compensation cover, volatility, irreversible transfers, how crypto works', () => {
    const ids = QUESTION_BANK.map((question) => question.id);
    expect(ids).toEqual(
      expect.arrayContaining(['total-loss', 'fscs', 'volatility', 'irreversible', 'what-it-is']),
    );
    expect(QUESTION_BANK.length).toBeGreaterThanOrEqual(ASSESSMENT_RULES.questions + 4);
  });

  it('draws distinct questions from the bank, each with all its options once, then asks about experience', () => {
    fc.assert(
      fc.property(fc.infiniteStream(fc.nat()), (stream) => {
        const iterator = stream[Symbol.iterator]();
        const drawn = drawAssessment((bound) => iterator.next().value % bound);
        expect(drawn).toHaveLength(ASSESSMENT_RULES.questions + 1);
        expect(new Set(drawn.map((question) => question.id)).size).toBe(drawn.length);
        expect(drawn.at(-1)!.id).toBe(EXPERIENCE_QUESTION.id);
        for (const { id, option_ids: optionIds } of drawn) {
          const question = findQuestion(id)!;
          expect([...optionIds].sort()).toEqual(question.options.map((option) => option.id).sort());
        }
      }),
      PROPERTY_RUNS,
    );
  });

  it('varies from one attempt to the next: questions and the order of their answers', () => {
    const attempts = Array.from({ length: 20 }, () => drawAssessment(randomInt));
    const questionSets = new Set(attempts.map((drawn) => drawn.map((question) => question.id).join()));
    expect(questionSets.size).toBeGreaterThan(1);
    const firstPositions = new Set(
      attempts.flatMap((drawn) =>
        drawn
          .filter((question) => question.id === 'total-loss')
          .map((question) => question.option_ids.indexOf('a')),
      ),
    );
    expect(firstPositions.size).toBeGreaterThan(1);
  });

  it('passes at the pass mark and fails one below it, recording the experience answer', () => {
    const drawn = drawAssessment(randomInt);
    expect(scoreAssessment(drawn, answer(drawn, ASSESSMENT_RULES.passMark))).toEqual({
      score: ASSESSMENT_RULES.passMark,
      total: ASSESSMENT_RULES.questions,
      passed: true,
      experience: 'few',
    });
    expect(scoreAssessment(drawn, answer(drawn, ASSESSMENT_RULES.passMark - 1))).toMatchObject({
      score: ASSESSMENT_RULES.passMark - 1,
      passed: false,
    });
  });

  it('refuses an unanswered question, an option the question does not have, and a question not drawn', () => {
    const drawn = drawAssessment(randomInt);
    const answers = answer(drawn, ASSESSMENT_RULES.questions);
    const first = drawn[0]!.id;
    const { [first]: _skipped, ...unanswered } = answers;
    expect(() => scoreAssessment(drawn, unanswered)).toThrow(RangeError);
    expect(() => scoreAssessment(drawn, { ...answers, [first]: 'z' })).toThrow(RangeError);
    const notDrawn = QUESTION_BANK.find((question) => !drawn.some((entry) => entry.id === question.id))!;
    expect(() => scoreAssessment(drawn, { ...answers, [notDrawn.id]: 'a' })).toThrow(RangeError);
  });
});
