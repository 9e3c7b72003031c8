/**
 * The appropriateness assessment a retail customer passes before their first
 * crypto investment (issue 13; FCA COBS 10): questions on how crypto works
 * and what can go wrong. Each attempt draws its questions at random from the
 * bank and shuffles their answers, so it cannot be passed by rote; the
 * experience question is asked every time and not scored. The server alone
 * holds which answer is right: the web never imports this file.
 */

export type AssessmentOption = { id: string; text: string };
export type AssessmentQuestion = {
  id: string;
  text: string;
  options: readonly AssessmentOption[];
  /** The id of the right option; null for the experience question, which is recorded, not scored. */
  correct: string | null;
};

/** Questions per attempt, the right answers needed to pass, and the wait after a fail. */
export const ASSESSMENT_RULES = {
  questions: 8,
  passMark: 7,
  retakeWaitHours: 24,
  coolingOffHours: 24,
} as const;

export const EXPERIENCE_QUESTION: AssessmentQuestion = {
  id: 'experience',
  text: 'How often have you bought or sold crypto or other high-risk investments in the past two years?',
  options: [
    { id: 'never', text: 'Never' },
    { id: 'few', text: 'One to five times' },
    { id: 'many', text: 'More than five times' },
  ],
  correct: null,
};

export const QUESTION_BANK: readonly AssessmentQuestion[] = [
  {
    id: 'total-loss',
    text: 'If the price of a cryptoasset you hold falls to zero, what happens to your investment?',
    options: [
      { id: 'a', text: 'I lose all the money I invested in it' },
      { id: 'b', text: 'Florin pays back what I paid' },
      { id: 'c', text: 'The Financial Services Compensation Scheme pays me back' },
      { id: 'd', text: 'I keep what I paid, in pounds' },
    ],
    correct: 'a',
  },
  {
    id: 'fscs',
    text: 'Are your crypto investments on Florin protected by the Financial Services Compensation Scheme (FSCS)?',
    options: [
      { id: 'a', text: 'Yes, up to £85,000' },
      { id: 'b', text: 'No: if something goes wrong, I should not expect to be protected' },
      { id: 'c', text: 'Yes, in full' },
      { id: 'd', text: 'Only once I have held them for a year' },
    ],
    correct: 'b',
  },
  {
    id: 'ombudsman',
    text: 'If a crypto investment loses value, can you expect the Financial Ombudsman Service to get your money back?',
    options: [
      { id: 'a', text: 'Yes, always' },
      { id: 'b', text: 'Yes, if the loss is more than half' },
      { id: 'c', text: 'No: a fall in value is a risk I take myself' },
      { id: 'd', text: 'Yes, if I complain within a month' },
    ],
    correct: 'c',
  },
  {
    id: 'volatility',
    text: 'How quickly can the price of a cryptoasset change?',
    options: [
      { id: 'a', text: 'Only once a day, when the markets close' },
      { id: 'b', text: 'It never moves by more than 10% in a day' },
      { id: 'c', text: 'It is fixed by the Bank of England' },
      { id: 'd', text: 'It can rise or fall sharply within minutes' },
    ],
    correct: 'd',
  },
  {
    id: 'irreversible',
    text: 'You send coins to a wrong address by mistake. What is most likely to happen?',
    options: [
      { id: 'a', text: 'The transfer cannot be reversed and the coins are lost' },
      { id: 'b', text: 'Florin can cancel the transfer at any time' },
      { id: 'c', text: 'The network returns the coins after 24 hours' },
      { id: 'd', text: 'My bank can recall the coins' },
    ],
    correct: 'a',
  },
  {
    id: 'what-it-is',
    text: 'What is a cryptoasset such as bitcoin?',
    options: [
      { id: 'a', text: 'A digital form of the pound issued by the Bank of England' },
      {
        id: 'b',
        text: 'A digital asset recorded on a blockchain, not legal tender and not backed by any government',
      },
      { id: 'c', text: 'A savings account that pays interest' },
      { id: 'd', text: 'A share in Florin' },
    ],
    correct: 'b',
  },
  {
    id: 'selling',
    text: 'Can you always sell your crypto at the price you last saw?',
    options: [
      { id: 'a', text: 'Yes, prices are guaranteed for 24 hours' },
      { id: 'b', text: 'Yes, Florin must buy at that price' },
      { id: 'c', text: 'No: the price may have moved, and at times there may be few buyers' },
      { id: 'd', text: 'Yes, as long as I sell within a week' },
    ],
    correct: 'c',
  },
  {
    id: 'term-deposit',
    text: 'While your coins are locked in a term deposit, which of these is true?',
    options: [
      { id: 'a', text: 'Their value in pounds is protected until the term ends' },
      { id: 'b', text: 'I can sell them whenever I like' },
      { id: 'c', text: 'They are covered by the FSCS like a savings account' },
      { id: 'd', text: 'I cannot sell or withdraw them, and their value can fall meanwhile' },
    ],
    correct: 'd',
  },
  {
    id: 'how-much',
    text: 'How much of your money is it sensible to put into high-risk investments like crypto?',
    options: [
      { id: 'a', text: 'Only money I can afford to lose, usually no more than 10% of my net assets' },
      { id: 'b', text: 'All of my savings, to get the best return' },
      { id: 'c', text: 'Money I have borrowed' },
      { id: 'd', text: 'My emergency fund' },
    ],
    correct: 'a',
  },
  {
    id: 'scams',
    text: 'Someone online promises to double your crypto if you first send it to them. What is this most likely to be?',
    options: [
      { id: 'a', text: 'A guaranteed return' },
      { id: 'b', text: 'A scam' },
      { id: 'c', text: 'A Florin promotion' },
      { id: 'd', text: 'A government scheme' },
    ],
    correct: 'b',
  },
  {
    id: 'regulation',
    text: 'Which of these is true of investing in crypto in the UK?',
    options: [
      { id: 'a', text: 'It is regulated and protected like a bank deposit' },
      { id: 'b', text: 'Returns are guaranteed by the FCA' },
      { id: 'c', text: 'It is high risk, and most of it falls outside UK investor protection' },
      { id: 'd', text: 'It is risk free once I have held coins for a year' },
    ],
    correct: 'c',
  },
  {
    id: 'fees',
    text: 'You buy crypto on Florin and later sell it. What do the fees mean for you?',
    options: [
      { id: 'a', text: 'Nothing: fees are refunded when I sell' },
      { id: 'b', text: 'They add to my return' },
      { id: 'c', text: 'They are paid by Florin' },
      { id: 'd', text: 'The price must rise by more than the fees before I make a gain' },
    ],
    correct: 'd',
  },
  {
    id: 'tax',
    text: 'You sell crypto for more than you paid for it. What should you consider?',
    options: [
      { id: 'a', text: 'The gain may be subject to Capital Gains Tax' },
      { id: 'b', text: 'Crypto gains are always tax free' },
      { id: 'c', text: 'Florin pays any tax due for me' },
      { id: 'd', text: 'Tax applies only to gains over £1 million' },
    ],
    correct: 'a',
  },
  {
    id: 'price-setting',
    text: 'Who sets the price of bitcoin?',
    options: [
      { id: 'a', text: 'The Financial Conduct Authority' },
      { id: 'b', text: 'Buyers and sellers on markets around the world; nobody guarantees it' },
      { id: 'c', text: 'Florin, once a month' },
      { id: 'd', text: 'The Bank of England' },
    ],
    correct: 'b',
  },
];

/** A source of random integers in [0, bound): the server passes node:crypto's randomInt. */
export type RandomInt = (bound: number) => number;

/** Fisher–Yates with the given randomness: every order equally likely. */
function shuffle<T>(items: readonly T[], randomInt: RandomInt): T[] {
  const result = [...items];
  for (let index = result.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  return result;
}

/** One attempt as the customer sees it: question ids in order, each with its options in the order shown. */
export type DrawnQuestion = { id: string; option_ids: string[] };

/** Draws the scored questions at random, shuffles each one's answers, and ends with the experience question. */
export function drawAssessment(randomInt: RandomInt): DrawnQuestion[] {
  const scored = shuffle(QUESTION_BANK, randomInt).slice(0, ASSESSMENT_RULES.questions);
  return [
    ...scored.map((question) => ({
      id: question.id,
      option_ids: shuffle(question.options, randomInt).map((option) => option.id),
    })),
    { id: EXPERIENCE_QUESTION.id, option_ids: EXPERIENCE_QUESTION.options.map((option) => option.id) },
  ];
}

export function findQuestion(id: string): AssessmentQuestion | undefined {
  return id === EXPERIENCE_QUESTION.id
    ? EXPERIENCE_QUESTION
    : QUESTION_BANK.find((question) => question.id === id);
}

export type AssessmentOutcome = { score: number; total: number; passed: boolean; experience: string };

/**
 * Scores the answers to a drawn attempt. Every drawn question must be
 * answered with one of its options (anything else is refused by throwing).
 */
export function scoreAssessment(
  drawn: readonly DrawnQuestion[],
  answers: Readonly<Record<string, string>>,
): AssessmentOutcome {
  const unexpected = Object.keys(answers).filter((id) => !drawn.some((question) => question.id === id));
  if (unexpected.length > 0) throw new RangeError(`Not in this attempt: ${unexpected.join(', ')}`);
  let score = 0;
  let experience = '';
  for (const { id, option_ids: optionIds } of drawn) {
    const answer = answers[id];
    if (answer === undefined || !optionIds.includes(answer)) throw new RangeError(`Unanswered: ${id}`);
    const question = findQuestion(id)!;
    if (question.correct === null) experience = answer;
    else if (answer === question.correct) score += 1;
  }
  const total = drawn.length - 1;
  return { score, total, passed: score >= ASSESSMENT_RULES.passMark, experience };
}
