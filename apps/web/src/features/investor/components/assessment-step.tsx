import { fillText, INVESTOR_TEXTS, type AssessmentAttempt, type InvestorJourney } from '@florin/contracts';
import { Alert, Anchor, Button, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { describeError, toAppError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { showSuccessToast } from '../../../lib/toasts';
import { useStartAssessment, useSubmitAssessment } from '../api/assessment';

const when = (value: string) => formatDateTime(value) ?? value;

function RiskSummaryLink() {
  return (
    <Anchor component={Link} to={PATHS.riskSummary} target="_blank" rel="noopener">
      Read the risk summary
    </Anchor>
  );
}

/**
 * Step 2: the appropriateness assessment. The server draws the questions and
 * keeps the answers; the screen asks them, in the order given, and shows the
 * score. After a fail it says when the next attempt may start.
 */
export function AssessmentStep({ journey }: { journey: InvestorJourney }) {
  const [attempt, setAttempt] = useState<AssessmentAttempt | null>(null);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [showUnanswered, setShowUnanswered] = useState(false);
  const start = useStartAssessment();
  const submit = useSubmitAssessment();
  const { assessment } = journey;
  const retakeAt = assessment.retake_at;

  const handleStart = () => {
    setFailure(null);
    start.mutate(undefined, {
      onSuccess: (drawn) => {
        setAnswers({});
        setShowUnanswered(false);
        setAttempt(drawn);
      },
      onError: (error) => setFailure(describeError(toAppError(error))),
    });
  };

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!attempt) return;
    if (attempt.questions.some((question) => !answers[question.id])) {
      setShowUnanswered(true);
      return;
    }
    setFailure(null);
    submit.mutate(
      { attemptId: attempt.id, answers },
      {
        onSuccess: (answer) => {
          setAttempt(null);
          if (answer.result.passed) showSuccessToast({ title: 'Passed', message: answer.message });
        },
        onError: (error) => setFailure(describeError(toAppError(error))),
      },
    );
  };

  const last = assessment.last;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} size="h3">
          {INVESTOR_TEXTS.assessmentHeading}
        </Title>
        {last && !last.passed && (
          <Alert color="orange" variant="light" title="Not passed" role="status">
            <Stack gap={4}>
              <Text size="sm">
                {fillText(INVESTOR_TEXTS.assessmentFailed, {
                  score: last.score,
                  total: last.total,
                  passMark: assessment.pass_mark,
                  retakeAt: retakeAt ? when(retakeAt) : 'now',
                })}
              </Text>
              <RiskSummaryLink />
            </Stack>
          </Alert>
        )}
        {failure && (
          <Alert color="red" variant="light" title="Failed!" role="alert">
            {failure}
          </Alert>
        )}
        {!attempt && (
          <Stack gap="sm" align="flex-start">
            <Text>
              {fillText(INVESTOR_TEXTS.assessmentIntro, {
                passMark: assessment.pass_mark,
                questions: assessment.questions,
              })}
            </Text>
            {retakeAt ? (
              <Text fw={500}>{fillText(INVESTOR_TEXTS.retakeWait, { retakeAt: when(retakeAt) })}</Text>
            ) : (
              <Button onClick={handleStart} loading={start.isPending}>
                {INVESTOR_TEXTS.assessmentStart}
              </Button>
            )}
          </Stack>
        )}
        {attempt && (
          <form onSubmit={handleSubmit} noValidate aria-label={INVESTOR_TEXTS.assessmentHeading}>
            <Stack gap="lg">
              {attempt.questions.map((question, index) => (
                <Radio.Group
                  key={question.id}
                  label={`${index + 1}. ${question.text}`}
                  value={answers[question.id] ?? ''}
                  onChange={(value) => setAnswers((current) => ({ ...current, [question.id]: value }))}
                  error={showUnanswered && !answers[question.id] ? 'Choose an answer.' : undefined}
                >
                  <Stack gap={6} mt="xs">
                    {question.options.map((option) => (
                      <Radio key={option.id} value={option.id} label={option.text} />
                    ))}
                  </Stack>
                </Radio.Group>
              ))}
              {showUnanswered && (
                <Text c="red" size="sm" role="alert">
                  {INVESTOR_TEXTS.assessmentUnanswered}
                </Text>
              )}
              <Button type="submit" loading={submit.isPending} style={{ alignSelf: 'flex-start' }}>
                {INVESTOR_TEXTS.assessmentSubmit}
              </Button>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
