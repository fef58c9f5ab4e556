/**
 * A strength meter for a password being chosen: zxcvbn-ts's estimate of how many guesses it would take,
 * as a bar and a word, with the person's own name and address counted as easy guesses. zxcvbn and its
 * dictionaries (some 400 KB) are loaded only when a form that chooses a password first shows this, never
 * on the first page. It guides; the server's rules (password-policy.ts) decide, and their messages are shown
 * by the form when it refuses.
 */
import { Group, Progress, Text } from '@mantine/core';
import { useEffect, useState } from 'react';

type Checker = (password: string, userInputs: string[]) => { score: 0 | 1 | 2 | 3 | 4 };

let loading: Promise<Checker> | undefined;

/** zxcvbn with the common dictionaries and keyboard layouts, loaded once per page. */
export function loadStrengthChecker(): Promise<Checker> {
  loading ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(([core, common]) => {
    const factory = new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary },
      graphs: common.adjacencyGraphs,
      useLevenshteinDistance: true,
    });
    return (password, userInputs) => factory.check(password, userInputs);
  });
  return loading;
}

const LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;
const COLORS = ['red', 'red', 'yellow', 'teal', 'green'] as const;

export function PasswordStrength({ password, userInputs, minLength }: { password: string; userInputs: string[]; minLength: number }) {
  const [checker, setChecker] = useState<Checker | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadStrengthChecker().then(
      (check) => live && setChecker(() => check),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  const length = [...password].length;
  const short = length < minLength;
  const score = checker && password ? checker(password, userInputs).score : null;
  // Below the minimum the server refuses it whatever zxcvbn thinks: never call it strong.
  const shown = score === null ? null : short ? Math.min(score, 1) : score;
  return (
    <div>
      {/* A meter, not a progress bar: it measures, nothing is under way. */}
      <Progress.Root
        size="sm"
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={4}
        aria-valuenow={shown ?? 0}
        aria-valuetext={shown === null ? 'Not measured yet' : LABELS[shown]}
      >
        <Progress.Section value={shown === null ? 0 : (shown + 1) * 20} color={shown === null ? 'gray' : COLORS[shown]} withAria={false} />
      </Progress.Root>
      <Group justify="space-between" mt={4} gap="xs">
        <Text size="xs" c="dimmed" aria-live="polite">
          {failed
            ? 'The strength meter could not be loaded.'
            : password === ''
              ? ' '
              : shown === null
                ? 'Measuring…'
                : `Strength: ${LABELS[shown]}`}
        </Text>
        <Text size="xs" c={short && password ? 'red' : 'dimmed'}>
          {length} of at least {minLength} characters
        </Text>
      </Group>
    </div>
  );
}
