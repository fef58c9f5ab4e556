/**
 * Case lookup: the container. It owns the route (`/cases/<form>/<id>` is the deep link), the query, the
 * recent lookups and where focus goes; everything it shows is a presentational component.
 */
import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { pathTo } from '@/lib/paths';
import { lazyModule, useLazyModule } from '@/lib/lazy-module';
import { useSite } from '@/lib/site-context';
import { useLocation, useNavigate, usePathParams, usePathState } from '@/lib/router';
import { caseIdentifierViolations } from '@/contract/identifiers';
import { caseIdentity } from './case-identity';
import { formCaseQueryOptions } from './case-query';
import { ErrorPanel } from './error-panel';
import { explainFailure, type FailureText } from '@/lib/api-error-class';
import { InboxLinks } from './inbox-links';
import { LookupForm, type LookupRequest } from './lookup-form';
import { RecentLookupsList } from './recent-lookups-list';
import { revealedText } from './reveal-invisible';
import { useRecentLookups } from './use-recent-lookups';
import { warmDateFormatsWhenIdle } from './warm-date-formats';
import hidden from '@/lib/visually-hidden.module.css';
import classes from './cases.module.css';
import layout from './cases-page.module.css';

/**
 * What shows a case (its header, the field table, the tabs and raw JSON, with what they need) is a chunk of
 * its own: the first paint of Cases is the lookup form. It starts loading as soon as identifiers are typed,
 * or when the address names a case.
 */
const caseView = lazyModule(() => import('./case-result'));

/** Previous and next of a case opened from the inbox: with the inbox's modules, so only then. */
const CaseSteps = lazy(() => import('./case-steps').then((module) => ({ default: module.CaseSteps })));

const CASE_VIEW_FAILED: FailureText = {
  title: 'The case could not be shown',
  message: 'The part of this page that shows a case could not be loaded from site-admin’s server. Check the connection and try again.',
  said: null,
  details: [],
  canRetry: true,
};

function LoadingCase({ form, id }: { form: string; id: string }) {
  return (
    <Stack gap="sm" aria-busy="true">
      <span role="status" className={hidden.visuallyHidden}>
        Looking up case {id} of form {form}…
      </span>
      <Skeleton height={32} width="50%" />
      <Skeleton height={16} width="35%" />
      {Array.from({ length: 6 }, (_, i) => (
        <Skeleton key={i} height={28} />
      ))}
    </Stack>
  );
}

export function CasesPage() {
  const params = usePathParams('case');
  const arrival = usePathState('case');
  const navigate = useNavigate();
  const form = params?.form ?? '';
  const id = params?.id ?? '';
  const linkViolations = params ? caseIdentifierViolations(form, id) : [];
  const ready = params !== null && linkViolations.length === 0;
  const query = useQuery({ ...formCaseQueryOptions(form, id), enabled: ready });
  const view = useLazyModule(caseView, ready);
  const CaseResult = view.module?.CaseResult;
  const recent = useRecentLookups();
  const { remember } = recent;
  // An error is about the identifiers it was for: once the boxes hold others, it goes.
  const [editedAway, setEditedAway] = useState(false);
  const { load: loadView } = view;
  const onEdit = useCallback(
    (nextForm: string, nextId: string) => {
      setEditedAway(nextForm.trim() !== form || nextId.trim() !== id);
      loadView();
    },
    [form, id, loadView],
  );

  useEffect(() => warmDateFormatsWhenIdle(), []);

  const headingRef = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  // After a lookup, focus goes to its outcome (the case heading or the error) once it is on screen. The
  // intent travels in the history entry's state, as the page may be mounted afresh for the new address.
  const focusWhenSettled = useRef<string | null>(null);
  const location = useLocation();
  // A case opened from the inbox carries the inbox in its query: previous, next and the way back.
  const fromInbox = new URLSearchParams(location.search).get('form') === form;
  const arrivedByLookup = arrival?.lookup === true;
  const { data, refetch } = query;
  // The answer is put on screen in a transition: React renders a large case in slices between which the
  // browser stays responsive, rather than in one long task (the query's own update is synchronous). Only
  // an answer for the identifiers in the address is shown, never the previous case's while the next loads;
  // a case already in the cache (Back) is put on screen the same way. It waits for the case view's chunk.
  const caseKey = `${form}/${id}`;
  const answered = useMemo(() => (data && CaseResult ? { caseKey, data } : null), [data, caseKey, CaseResult]);
  const deferred = useDeferredValue(answered, null);
  const shown = deferred?.caseKey === caseKey ? deferred.data : undefined;
  // The answer is here but the view could not be loaded (a failed lookup says so itself).
  const viewFailed = ready && data !== undefined && view.error !== null;
  // The team's work on the case beside it: its place comes with the case view's chunk (case-work-slot.tsx).
  const CaseWorkSlot = view.module?.CaseWorkSlot;
  const settled = ready && !query.isFetching && (query.isError || viewFailed || shown === data);

  useEffect(() => {
    if (arrivedByLookup) focusWhenSettled.current = `${form}/${id}`;
  }, [location, arrivedByLookup, form, id]);

  useEffect(() => {
    if (!settled || focusWhenSettled.current !== `${form}/${id}`) return;
    focusWhenSettled.current = null;
    (query.isError || viewFailed ? errorRef : headingRef).current?.focus();
  }, [settled, form, id, query.isError, viewFailed]);

  const { site } = useSite();
  const formProfile = site.forms?.[form];
  // From the case on screen: the title and the recent lookups follow it, after its first screen is up.
  const identity = useMemo(() => (shown ? caseIdentity(shown.record, form, id, formProfile?.name) : null), [shown, form, id, formProfile]);
  useEffect(() => {
    if (identity && ready) remember({ form, id, title: identity.formLabel });
  }, [identity, form, id, ready, remember]);

  const lookup = useCallback(
    ({ form: nextForm, id: nextId, formReadFrom }: LookupRequest) => {
      focusWhenSettled.current = `${nextForm}/${nextId}`;
      setEditedAway(false);
      if (nextForm === form && nextId === id) void refetch();
      else {
        const formReadAs = formReadFrom === null ? undefined : { typed: formReadFrom, form: nextForm };
        navigate(pathTo('case', { form: nextForm, id: nextId }), { state: { lookup: true, formReadAs } });
      }
    },
    [form, id, navigate, refetch],
  );

  const errorView = query.isError && !editedAway ? explainFailure(query.error, { kind: 'lookup', form, id }) : null;
  const title = identity ? revealedText(`${identity.formLabel}: case ${identity.caseId}`) : ready ? `Case ${id} of form ${form}` : 'Cases';

  return (
    <Stack gap="lg">
      <title>{`${title} · site-admin`}</title>
      <Stack gap={4}>
        <Title order={1}>Cases</Title>
        <Text className={classes.muted}>Go through a form’s inbox, or look up one form submission by its form and case identifiers.</Text>
      </Stack>
      <div className={layout.layout}>
        <Stack gap="lg">
          <LookupForm
            // A new link starts the form afresh from its identifiers (keys differ from the result's: same parent).
            key={`lookup:${form}/${id}`}
            defaultForm={form}
            defaultId={id}
            defaultFormReadFrom={arrival?.formReadAs?.form === form ? arrival.formReadAs.typed : null}
            pending={query.isFetching && !data}
            onLookup={lookup}
            onEdit={onEdit}
          />
          {linkViolations.length > 0 && !editedAway && (
            <ErrorPanel
              view={{
                title: 'This link cannot point to a case',
                message: 'Its identifiers are not ones a form or case can have, so nothing was sent.',
                said: null,
                details: linkViolations,
                canRetry: false,
              }}
              retrying={false}
              onRetry={() => undefined}
            />
          )}
          {ready && fromInbox && (
            <Suspense fallback={null}>
              <CaseSteps search={location.search} id={id} />
            </Suspense>
          )}
          {errorView && <ErrorPanel view={errorView} retrying={query.isFetching} onRetry={() => void refetch()} panelRef={errorRef} />}
          {viewFailed && (
            <ErrorPanel
              view={CASE_VIEW_FAILED}
              retrying={view.loading}
              onRetry={() => {
                focusWhenSettled.current = caseKey;
                view.load();
              }}
              panelRef={errorRef}
            />
          )}
          {ready && !viewFailed && (query.isPending || (data && !shown)) && <LoadingCase form={form} id={id} />}
          {shown && CaseResult && (
            <CaseResult
              key={`case:${form}/${id}`}
              answer={shown}
              form={form}
              id={id}
              refreshing={query.isFetching}
              onRefresh={() => void refetch()}
              headingRef={headingRef}
              formProfile={formProfile}
            />
          )}
          {!ready && linkViolations.length === 0 && (
            <Text className={classes.muted}>
              Type the two identifiers from the customer&apos;s email or a colleague&apos;s message, or paste a case link, then press Enter.
            </Text>
          )}
        </Stack>
        <Stack gap="xl">
          {shown && CaseWorkSlot && <CaseWorkSlot key={`work:${form}/${id}`} form={form} caseId={id} />}
          <RecentLookupsList lookups={recent.list} onClear={recent.clear} />
        </Stack>
      </div>
      {!ready && linkViolations.length === 0 && <InboxLinks />}
    </Stack>
  );
}
