/**
 * The team's work on a site's cases (INBOX_PATHS of src/contract/case-work.ts, but the export): the work on a
 * page of cases, a change of status, assignee or seen on many at once, one case's work with its notes, a new
 * note, a note's edit, and who may be assigned. Only for people who may look up cases on the site (the
 * local demo included): a case's work is about a case they could open. Status, assignee and note changes
 * are entries of the activity record (a note's id and length, never its text); seen is not (see
 * docs/activity.md). Only a note's author may edit it.
 */
import { actorName, capabilitiesOfAsker, may, refusalMessage } from '../../src/contract/access';
import {
  CASE_ID,
  CASE_STATUS_LABELS,
  CASE_WORK_MAX_CASES,
  INBOX_PATHS,
  noteBodySchema,
  workChangeSchema,
  type WorkAnswer,
} from '../../src/contract/case-work';
import { IDENTIFIER_PATTERN } from '../../src/contract/identifiers';
import type { ErrorDetail } from '../../src/contract/site-api';
import { sendError } from '../answers';
import type { ActivityStore, NewEntry } from '../activity/activity-store';
import { shortUserAgent } from '../activity/record-site-calls';
import { actorOf, type Identity } from '../identity';
import { parseBody, sendJson, type Endpoint, type EndpointCall } from '../own-api';
import { personKeyOf, type CaseWorkStore, type Worker } from './case-work-store';

/** Who works, as the store keeps them: a person by id and name, the local demo without an id. */
function workerOf(who: Identity): Worker | undefined {
  const actor = actorOf(who);
  if (actor.kind === 'person') return { id: actor.id, name: actor.name };
  if (actor.kind === 'demo') return { id: null, name: actorName(actor) };
  return undefined;
}

const bad = (call: EndpointCall, message: string, details: ErrorDetail[]) => sendError(call.request.res, 400, message, details);

/**
 * The case ids of `?cases=`, read strictly: the parameter once, ids separated by commas, 1 to
 * CASE_WORK_MAX_CASES of them, each a case id, none twice; or what is wrong with it.
 */
export function casesParameter(search: URLSearchParams): { ok: true; cases: string[] } | { ok: false; message: string } {
  const all = search.getAll('cases');
  if (all.length !== 1) return { ok: false, message: all.length === 0 ? 'must name at least one case' : 'must be given once' };
  const cases = (all[0] ?? '').split(',');
  if (cases.length > CASE_WORK_MAX_CASES) return { ok: false, message: `must name at most ${CASE_WORK_MAX_CASES} cases` };
  const wrong = cases.find((id) => !CASE_ID.test(id));
  if (wrong !== undefined)
    return { ok: false, message: wrong === '' ? 'must not hold an empty id' : 'must hold case ids separated by commas' };
  const seen = new Set<string>();
  const twice = cases.find((id) => seen.size === seen.add(id).size);
  if (twice !== undefined) return { ok: false, message: `names case ${twice} twice` };
  return { ok: true, cases };
}

export function caseWorkEndpoints(options: {
  work: CaseWorkStore;
  activity: ActivityStore;
  /** Each site of the profile: its name, by id (for the refusal's words). */
  siteNames: ReadonlyMap<string, string>;
  now: () => number;
}): Endpoint[] {
  const { work, activity, siteNames, now } = options;

  /**
   * The site, form and case of the address, and who asks, when the address is right and the asker may look
   * up cases on the site; otherwise answers 404, 400 or 403 itself (before anything is read or changed).
   */
  function scope(call: EndpointCall): { siteId: string; formId: string; caseId: string; worker: Worker } | undefined {
    const { res } = call.request;
    const siteId = call.params.site ?? '';
    const siteName = siteNames.get(siteId);
    if (siteName === undefined) {
      sendError(res, 404, `No site called ${JSON.stringify(siteId.slice(0, 64))} is configured on this server.`);
      return undefined;
    }
    const details: ErrorDetail[] = [];
    const formId = call.params.form ?? '';
    if (call.params.form !== undefined && !IDENTIFIER_PATTERN.test(formId))
      details.push({ field: 'form', message: 'must be 1 to 64 ASCII letters, digits, "_" or "-"' });
    const caseId = call.params.case ?? '';
    if (call.params.case !== undefined && !CASE_ID.test(caseId))
      details.push({ field: 'case', message: 'must be 1 to 64 ASCII letters, digits, "_" or "-"' });
    if (call.params.note !== undefined && !CASE_ID.test(call.params.note)) details.push({ field: 'note', message: 'must be a note’s id' });
    if (details.length > 0) {
      bad(call, 'This address does not name a form, case or note that can exist.', details);
      return undefined;
    }
    const worker = workerOf(call.who);
    if (!worker || !may(call.who, siteId, 'lookup')) {
      sendError(res, 403, refusalMessage(siteName, capabilitiesOfAsker(call.who, siteId), 'lookup'));
      return undefined;
    }
    return { siteId, formId, caseId, worker };
  }

  /** An entry of the activity record for a change of work made by this call. */
  function entry(
    call: EndpointCall,
    siteId: string,
    formId: string,
    caseId: string | null,
    action: string,
    name: string | null,
    detail: unknown,
  ) {
    const entry_: NewEntry = {
      at: now(),
      actor: actorOf(call.who),
      siteId,
      action,
      target: { form: formId, case: caseId, name },
      requestId: null,
      address: call.request.req.socket.remoteAddress ?? null,
      userAgent: shortUserAgent(call.request.req.headers['user-agent']),
      outcome: 'ok',
      detail,
    };
    return entry_;
  }

  /**
   * Appends `entries`; when the record cannot take them, undoes what was done (`undo`), answers 503 and
   * resolves to false: nothing of the team's work changes unrecorded.
   */
  async function recorded(call: EndpointCall, entries: NewEntry[], undo?: () => Promise<void>): Promise<boolean> {
    try {
      await activity.append(...entries);
      return true;
    } catch (error) {
      console.error('site-admin: a change of the team’s work could not be recorded; it was not made', error);
      await undo?.();
      sendError(call.request.res, 503, 'The activity record could not take this change, so it was not made. Try again in a moment.');
      return false;
    }
  }

  async function answerOf(siteId: string, formId: string, cases: readonly string[], worker: Worker): Promise<WorkAnswer> {
    const personKey = personKeyOf(worker);
    const [since, found] = await Promise.all([work.since(siteId, formId, personKey, now()), work.work(siteId, formId, cases, personKey)]);
    return { since, cases: found };
  }

  return [
    {
      method: 'GET',
      path: INBOX_PATHS.work,
      handle: async (call) => {
        const found = scope(call);
        if (!found) return;
        const read = casesParameter(new URL(call.request.url, 'http://x').searchParams);
        if (!read.ok)
          return bad(call, `The cases of this request are not right: it ${read.message}.`, [{ field: 'cases', message: read.message }]);
        sendJson(call.request.res, 200, await answerOf(found.siteId, found.formId, read.cases, found.worker));
      },
    },
    {
      method: 'PATCH',
      path: INBOX_PATHS.change,
      handle: async (call) => {
        const found = scope(call);
        if (!found) return;
        const { siteId, formId, worker } = found;
        const body = parseBody(
          call.request.res,
          workChangeSchema,
          call.body,
          'Name the cases and what changes: the status, the assignee (a person’s id, or null for nobody) or seen.',
        );
        if (!body) return;
        const cases = body.cases;
        const twice = cases.find((id, index) => cases.indexOf(id) !== index);
        if (twice !== undefined) return bad(call, 'A case is named twice.', [{ field: 'cases', message: `names case ${twice} twice` }]);
        let assignee: { id: string; name: string } | null | undefined;
        if (body.assignee !== undefined && body.assignee !== null) {
          assignee = (await work.assignees(siteId)).find((person) => person.id === body.assignee);
          if (!assignee) {
            return bad(call, 'Cases can be assigned only to a person who may look up cases on this site.', [
              { field: 'assignee', message: 'must be a person who may look up cases on this site' },
            ]);
          }
        } else assignee = body.assignee;
        // One entry per change asked for; seen is the person's own reading, not a change of the team's work.
        const single = cases.length === 1 ? (cases[0] ?? null) : null;
        const entries: NewEntry[] = [];
        if (body.status !== undefined) {
          entries.push(
            entry(call, siteId, formId, single, 'case.status', CASE_STATUS_LABELS[body.status], {
              cases,
              status: body.status,
              count: cases.length,
            }),
          );
        }
        if (assignee !== undefined) {
          entries.push(
            entry(call, siteId, formId, single, 'case.assigned', assignee ? assignee.name : 'Nobody', {
              cases,
              assignee,
              count: cases.length,
            }),
          );
        }
        // Recorded before it is made, as a create before it leaves: a change the record cannot take is not made.
        if (entries.length > 0 && !(await recorded(call, entries))) return;
        await work.change(
          siteId,
          formId,
          cases,
          { status: body.status, assignee: assignee === undefined ? undefined : (assignee?.id ?? null) },
          worker,
          now(),
        );
        if (body.seen !== undefined) await work.setSeen(siteId, formId, cases, personKeyOf(worker), body.seen, now());
        sendJson(call.request.res, 200, await answerOf(siteId, formId, cases, worker));
      },
    },
    {
      method: 'GET',
      path: INBOX_PATHS.caseWork,
      handle: async (call) => {
        const found = scope(call);
        if (!found) return;
        sendJson(call.request.res, 200, await work.detail(found.siteId, found.formId, found.caseId, personKeyOf(found.worker)));
      },
    },
    {
      method: 'POST',
      path: INBOX_PATHS.notes,
      handle: async (call) => {
        const found = scope(call);
        if (!found) return;
        const body = parseBody(call.request.res, noteBodySchema, call.body, 'Give the note’s text.');
        if (!body) return;
        const { siteId, formId, caseId, worker } = found;
        const note = await work.addNote(siteId, formId, caseId, body.text, worker, now());
        // The note's id and length: its text may hold personal data and stays out of the record. A note the
        // record cannot take is taken back.
        const entries = [entry(call, siteId, formId, caseId, 'case.note.added', null, { note: note.id, length: note.text.length })];
        if (!(await recorded(call, entries, () => work.removeNote(note.id)))) return;
        sendJson(call.request.res, 201, note);
      },
    },
    {
      method: 'PUT',
      path: INBOX_PATHS.note,
      handle: async (call) => {
        const found = scope(call);
        if (!found) return;
        const body = parseBody(call.request.res, noteBodySchema, call.body, 'Give the note’s new text.');
        if (!body) return;
        const { siteId, formId, caseId, worker } = found;
        const noteId = call.params.note ?? '';
        const edited = await work.editNote(siteId, formId, caseId, noteId, body.text, worker, now());
        if (edited === 'missing') return sendError(call.request.res, 404, 'This case has no such note.');
        if (edited === 'not-author') {
          sendError(call.request.res, 403, 'Only the note’s author may edit it: add a note of your own instead.');
          return;
        }
        if (edited === 'conflict') {
          sendError(call.request.res, 409, 'This note was edited meanwhile: load it again and make your edit on its latest text.', [
            { field: 'note', message: 'was edited meanwhile' },
          ]);
          return;
        }
        const entries = [
          entry(call, siteId, formId, caseId, 'case.note.edited', null, {
            note: edited.id,
            length: edited.text.length,
            version: edited.versions.length + 1,
          }),
        ];
        if (!(await recorded(call, entries, () => work.undoEdit(edited.id, edited)))) return;
        sendJson(call.request.res, 200, edited);
      },
    },
    {
      method: 'GET',
      path: INBOX_PATHS.assignees,
      handle: async (call) => {
        const found = scope(call);
        if (!found) return;
        sendJson(call.request.res, 200, { people: await work.assignees(found.siteId) });
      },
    },
  ];
}

/**
 * Removes the notes older than `days` (and their earlier texts), and records how many as `case.notes.pruned`
 * when any were; resolves to the count.
 */
export async function pruneCaseNotes(work: CaseWorkStore, activity: ActivityStore, days: number, now: number): Promise<number> {
  const cutoff = now - days * 86_400_000;
  const removed = await work.pruneNotes(cutoff);
  if (removed > 0) {
    await activity.append({
      at: now,
      actor: { kind: 'anonymous' },
      action: 'case.notes.pruned',
      outcome: 'ok',
      detail: { removed, before: new Date(cutoff).toISOString() },
    });
  }
  return removed;
}
