/**
 * The product form. Where the work ends and the form begins:
 * - the page (new-product-page.tsx, import/edit-imported-page.tsx) owns the data and the side effects:
 *   where the values come from, the draft, sending (it encodes the values with the codec right before
 *   its request), navigation, and the problems a server named, mapped to form paths;
 * - this form owns the fields and their checks, and the purely visual state of moving through them:
 *   the step shown, where the cursor goes, which attributes and options are expanded.
 * Values cross the boundary as form values (ProductForm) both ways: `defaultValues` in, `onSubmit(values)`
 * out, once they pass every check; `errors` and `disabled` come back in.
 */
import { Button, Group, Stack } from '@mantine/core';
import { useCallback, useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import { FormProvider, useForm, useFormState, type FieldPath } from 'react-hook-form';
import type { FormProblem, ProductSettings } from '../model/codec';
import type { ProductForm } from '../model/product-form';
import { STEPS, pathsOfStep, stepOfPath, type StepId } from '../model/registry';
import { productResolver, validateProductForm } from '../model/validate';
import { AttributesStep } from '../steps/attributes-step';
import { BasicsStep } from '../steps/basics-step';
import { PlacementStep } from '../steps/placement-step';
import { PricingStep } from '../steps/pricing-step';
import { ReviewStep, type ReviewStepProps } from '../steps/review-step';
import { CreatingNotice } from './creating-notice';
import { EditingContext, ReadOnlyFieldset, type Editing } from './editing';
import { EditorContext } from './editor-context';
import type { CreatedSlugs } from './created-slugs';
import { createExpansionStore, type ExpansionStore } from './expansion';
import { ImportExport } from './import-export';
import { errorPaths, keysAlong } from './reveal';
import { ShortcutsButton, ShortcutsHelp, useEditorShortcuts } from './shortcuts';
import { StepNav } from './step-nav';

export interface ProductEditorProps {
  defaultValues: ProductForm;
  /** The locale the person types in (the browser's) and the site's price precision, from typing to sending. */
  settings: ProductSettings;
  initialStep?: number;
  /** The values, once every check passed (the same values that were checked). */
  onSubmit: (values: ProductForm) => void | Promise<void>;
  /** The page is sending: the final button waits, and Review says where the product goes. */
  submitting: boolean;
  /** Problems a server named on fields, at form paths; each new list marks its fields and Review lists them. */
  errors?: readonly FormProblem[];
  /** The final button is off, e.g. while the outcome of the last attempt is unknown. */
  disabled?: boolean;
  /** Something changed: `read` gives the current values (read them when saving, not per keystroke). */
  onValuesChange: (read: () => ProductForm, step: number) => void;
  onDirtyChange: (dirty: boolean) => void;
  /** Alerts from the page (e.g. the outcome of create), shown above the steps. */
  banner?: ReactNode;
  /** Where the product goes, for "Creating on Harbour Linen…". */
  targetName: string;
  /** The final button's words, when it does something else than create (bring a product back to an import). */
  submitLabel?: string;
  /** Slugs already created on the site, with who and when: the slug typed is warned about when it is one. */
  createdSlugs?: CreatedSlugs;
  /** The form's accessible name ("New product", "Edit product"). */
  formLabel?: string;
  /**
   * A correction of a product on the platform (`existing`), or one shown read-only: then every control
   * is off, the steps are only looked at (Next checks nothing) and there is no final button.
   */
  editing?: Editing;
  /** The last step's content in place of the create's summary (a correction's Review shows its diff). */
  review?: (props: ReviewStepProps) => ReactNode;
  /** What Review shows while the page is sending, in place of "Creating on …". */
  sendingNotice?: ReactNode;
}

/** Asks the focus effect for the first field marked invalid on the step, rather than a given path. */
const FIRST_INVALID = '\u0000first-invalid';

const NO_ERRORS: readonly FormProblem[] = [];

const NOT_EDITING: Editing = { existing: false, readOnly: false };

function StepBody({
  step,
  onGoTo,
  problems,
  onEditStep,
  status,
  review,
  submitLabel,
}: {
  step: StepId;
  onGoTo: (path: string) => void;
  problems: FormProblem[];
  onEditStep: (index: number) => void;
  status: ReactNode;
  review: ((props: ReviewStepProps) => ReactNode) | undefined;
  submitLabel: string;
}) {
  switch (step) {
    case 'basics':
      return (
        <ReadOnlyFieldset>
          <BasicsStep />
        </ReadOnlyFieldset>
      );
    case 'placement':
      return (
        <ReadOnlyFieldset>
          <PlacementStep />
        </ReadOnlyFieldset>
      );
    case 'pricing':
      return (
        <ReadOnlyFieldset>
          <PricingStep />
        </ReadOnlyFieldset>
      );
    case 'attributes':
      // Its rows' expand buttons stay usable; each row's fields are in a fieldset of their own.
      return <AttributesStep />;
    case 'review': {
      const props = { problems, onGoTo, onEditStep, status, submitLabel };
      return review ? review(props) : <ReviewStep {...props} />;
    }
  }
}

export function ProductEditor(props: ProductEditorProps) {
  const { defaultValues, settings, initialStep = 0, submitting, onSubmit, errors = NO_ERRORS, disabled = false } = props;
  const { onValuesChange, onDirtyChange, banner, targetName, submitLabel = 'Create product', createdSlugs } = props;
  const { formLabel = 'New product', editing = NOT_EDITING, review, sendingNotice } = props;
  const { readOnly } = editing;
  // The contract's rules, through the codec in the person's locale, are the form's resolver: `trigger`
  // marks the fields; nothing pushes client-side errors by hand. It also keeps the last whole check's
  // problems (those no field shows too) for the review.
  const [check] = useState(() => {
    const last = { problems: [] as FormProblem[] };
    return { last, resolver: productResolver(settings, (problems) => (last.problems = problems)) };
  });
  const form = useForm<ProductForm>({
    defaultValues,
    resolver: check.resolver,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const { getValues, setError, clearErrors, setFocus, reset, trigger } = form;
  const [active, setActive] = useState(Math.min(initialStep, STEPS.length - 1));
  const [visited, setVisited] = useState(active);
  // Opened on Review (a restored draft): its problems are known from the start.
  const [reviewProblems, setReviewProblems] = useState<FormProblem[]>(() =>
    STEPS[Math.min(initialStep, STEPS.length - 1)]?.id === 'review' ? validateProductForm(defaultValues, settings) : [],
  );
  const [pendingFocus, setPendingFocus] = useState<string | null>(null);
  const [expansion] = useState<ExpansionStore>(() => createExpansionStore());
  const submittingRef = useRef(false);
  const stepRef = useRef(active);
  useEffect(() => {
    stepRef.current = active;
  }, [active]);
  const { isDirty } = useFormState({ control: form.control });
  // An attempt that has ended (the page's `submitting` went back to false) may be followed by another.
  const wasSubmitting = useRef(submitting);
  useEffect(() => {
    if (wasSubmitting.current && !submitting) submittingRef.current = false;
    wasSubmitting.current = submitting;
  }, [submitting]);
  const bodyRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const createRef = useRef<HTMLButtonElement>(null);
  // The editor opens with the cursor in its first field (Name, on a new product).
  const focusOnStep = useRef(true);

  // A new step puts the cursor in its first field (on review: on Create), unless a field was asked for.
  useEffect(() => {
    if (!focusOnStep.current) return;
    focusOnStep.current = false;
    const target =
      STEPS[active]?.id === 'review'
        ? createRef.current
        : bodyRef.current?.querySelector<HTMLElement>('input:not([type=hidden]), textarea, select');
    target?.focus();
  }, [active]);

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  // Autosave: a subscription, not a re-render per keystroke.
  const markChanged = useCallback(() => onValuesChange(getValues, stepRef.current), [onValuesChange, getValues]);

  /** Opens the attributes and options that hold the fields with errors, so the errors can be seen. */
  const revealErrors = () => {
    const values = getValues();
    expansion.openMany(errorPaths(form.formState.errors).flatMap((path) => keysAlong(values, path)));
  };

  /** Checks the whole product with the resolver (marking every field) and returns what the review lists. */
  const checkAll = async (): Promise<FormProblem[]> => {
    await trigger();
    revealErrors();
    return check.last.problems;
  };

  const goTo = (index: number) => {
    focusOnStep.current = true;
    setActive(index);
    setVisited((v) => Math.max(v, index));
    if (STEPS[index]?.id === 'review' && !readOnly) void checkAll().then(setReviewProblems);
    window.scrollTo({ top: 0 });
  };

  const next = async () => {
    const step = STEPS[active];
    if (!step || step.id === 'review') return;
    // Read-only: the steps are only looked at; nothing is checked, since nothing can be changed.
    if (readOnly) return goTo(active + 1);
    const ok = await trigger(pathsOfStep(settings.fields, step.id) as FieldPath<ProductForm>[]);
    if (ok) {
      goTo(active + 1);
      return;
    }
    revealErrors();
    setPendingFocus(FIRST_INVALID);
  };

  /**
   * Problems a server named (a 400/422 from the platform) land on their fields; they are not the
   * resolver's. Refused with reasons: Review lists each one as a link to it (the banner says nothing was
   * created), so the person sees every problem without going back first.
   */
  const [listedErrors, setListedErrors] = useState(errors);
  if (errors !== listedErrors) {
    setListedErrors(errors);
    if (errors.length > 0) setReviewProblems([...errors]);
  }
  const markServerErrors = useEffectEvent((problems: readonly FormProblem[]) => {
    submittingRef.current = false;
    clearErrors();
    const values = getValues();
    const keys: string[] = [];
    for (const problem of problems) {
      if (!problem.path) continue;
      setError(problem.path as FieldPath<ProductForm>, { type: 'server', message: problem.message });
      keys.push(...keysAlong(values, problem.path));
    }
    expansion.openMany(keys);
  });
  useEffect(() => {
    if (errors.length > 0) markServerErrors(errors);
  }, [errors]);

  /** From a problem in the review (or a server error): open its step and put the cursor in the field. */
  const goToField = (path: string) => {
    const index = STEPS.findIndex((s) => s.id === stepOfPath(path));
    expansion.openMany(keysAlong(getValues(), path));
    setActive(index);
    setVisited((v) => Math.max(v, index));
    setPendingFocus(path);
  };

  useEffect(() => {
    if (!pendingFocus) return;
    // After the step and any expanded rows have rendered.
    const frame = requestAnimationFrame(() => {
      if (pendingFocus === FIRST_INVALID) {
        // The top-most field marked invalid, in the order the person sees them.
        bodyRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      } else {
        try {
          setFocus(pendingFocus as FieldPath<ProductForm>, { shouldSelect: false });
        } catch {
          // A path with no focusable input (e.g. a whole list): the step is shown, that is enough.
        }
      }
      setPendingFocus(null);
    });
    return () => cancelAnimationFrame(frame);
  }, [pendingFocus, setFocus, active]);

  const create = async () => {
    // One submit per click, however fast the clicks: the ref closes the gap before `submitting` renders.
    if (submittingRef.current || submitting || disabled || readOnly) return;
    submittingRef.current = true;
    const problems = await checkAll();
    setReviewProblems(problems);
    if (problems.length > 0) {
      submittingRef.current = false;
      return;
    }
    // What the page sends is what was just checked: the same values.
    await onSubmit(getValues());
  };

  // An imported product lands on Review, its problems listed, ready to fix or create.
  const onImport = (values: ProductForm) => {
    reset(values, { keepDefaultValues: true });
    clearErrors();
    markChanged();
    goTo(STEPS.length - 1);
  };

  const stepId = STEPS[active]?.id ?? 'basics';
  // As Enter in a field does: the next step, or Create on Review.
  const advance = useCallback(() => formRef.current?.requestSubmit(), []);
  const shortcuts = useEditorShortcuts(advance);
  return (
    <FormProvider {...form}>
      <EditorContext settings={settings} expansion={expansion} onChange={markChanged} createdSlugs={createdSlugs} targetName={targetName}>
        <EditingContext.Provider value={editing}>
          <form
            ref={formRef}
            noValidate
            aria-label={formLabel}
            // Typing, switches, dates and tags all fire input events (React's onChange on a text field is
            // the same event, so listening to both would schedule the save twice per key); the rest call
            // markChanged.
            onInput={markChanged}
            onSubmit={(event) => {
              // Enter in a field moves on, as Next does (and creates, on the review step).
              event.preventDefault();
              if (stepId === 'review') void create();
              else void next();
            }}
          >
            <Stack gap="md">
              <Group justify="flex-end">
                <ShortcutsButton onClick={shortcuts.openHelp} />
                {!readOnly && <ImportExport onImport={onImport} />}
              </Group>
              <StepNav active={active} visited={visited} onStepClick={goTo} />
              {/* On Review, what happened to the last Create takes the place of "Ready to create". */}
              {stepId !== 'review' && banner}
              <div ref={bodyRef}>
                <StepBody
                  step={stepId}
                  onGoTo={goToField}
                  problems={reviewProblems}
                  onEditStep={goTo}
                  status={submitting ? (sendingNotice ?? <CreatingNotice target={targetName} />) : banner}
                  review={review}
                  submitLabel={submitLabel}
                />
              </div>
              <Group justify="space-between" mt="md">
                <Button variant="default" onClick={() => goTo(active - 1)} disabled={active === 0}>
                  Back
                </Button>
                {stepId === 'review' ? (
                  readOnly ? null : (
                    <Button
                      ref={createRef}
                      onClick={() => void create()}
                      loading={submitting}
                      disabled={submitting || disabled}
                      type="button"
                    >
                      {submitLabel}
                    </Button>
                  )
                ) : (
                  <Button type="submit">Next: {STEPS[active + 1]?.label}</Button>
                )}
              </Group>
            </Stack>
          </form>
          <ShortcutsHelp opened={shortcuts.helpOpen} onClose={shortcuts.closeHelp} />
        </EditingContext.Provider>
      </EditorContext>
    </FormProvider>
  );
}
