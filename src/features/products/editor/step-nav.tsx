/**
 * The editor's steps as a person moves between them: a stepper on wide screens, one line and a menu on a
 * phone or a tablet, each step marked when a field on it has an error.
 */
import { Button, Group, Menu, Stepper, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useFormState } from 'react-hook-form';
import type { ProductForm } from '../model/product-form';
import { STEPS, stepOfPath } from '../model/registry';
import { errorPaths } from './reveal';
import classes from './step-nav.module.css';

export function StepNav({ active, visited, onStepClick }: { active: number; visited: number; onStepClick: (index: number) => void }) {
  const { errors } = useFormState<ProductForm>();
  const stepsWithErrors = useMemo(() => new Set(errorPaths(errors).map(stepOfPath)), [errors]);
  const current = STEPS[active];
  return (
    <>
      <Stepper active={active} onStepClick={onStepClick} size="sm" allowNextStepsSelect={false} wrap visibleFrom="md">
        {STEPS.map((step, i) => {
          const hasErrors = stepsWithErrors.has(step.id);
          return (
            <Stepper.Step
              key={step.id}
              // Voice control reaches a step by what it shows. Its text is read as one run, without the
              // spaces between Mantine's parts ("1BasicsHas errors"): the number is drawn by CSS, and
              // "Has errors" is part of the label, so the text is "Basics Has errors", in the name below.
              icon={<span className={classes.number} data-step={i + 1} />}
              label={
                hasErrors ? (
                  <>
                    {step.label} <span className={classes.errors}>Has errors</span>
                  </>
                ) : (
                  step.label
                )
              }
              color={hasErrors ? 'red' : undefined}
              completedIcon={hasErrors ? '!' : undefined}
              allowStepSelect={i <= visited}
              // A step not reached yet cannot be opened, and says so.
              disabled={i > visited}
              aria-label={`${i + 1} ${step.label}${hasErrors ? ', has errors' : ''}`}
            />
          );
        })}
      </Stepper>
      {/* On a phone or a tablet the five steps become one line and a menu. */}
      <Group hiddenFrom="md" justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={600} size="sm">
          Step {active + 1} of {STEPS.length}: {current?.label}
          {current && stepsWithErrors.has(current.id) ? ' (has errors)' : ''}
        </Text>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button variant="default" size="xs" aria-label={`Steps: step ${active + 1} of ${STEPS.length}`}>
              Steps ▾
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {STEPS.map((step, i) => (
              <Menu.Item
                key={step.id}
                disabled={i > visited}
                onClick={() => onStepClick(i)}
                aria-current={i === active ? 'step' : undefined}
                color={stepsWithErrors.has(step.id) ? 'red' : undefined}
              >
                {i + 1}. {step.label}
                {stepsWithErrors.has(step.id) ? ' (has errors)' : ''}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </>
  );
}
