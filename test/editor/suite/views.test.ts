// The sidebar: Lore's activity-bar container holds the five views PRODUCT.md names, each opens,
// and the seeded records are drawn in them (read from the rendered sidebar by the runner).

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SEEDED_DEAD_END, SEEDED_DECISION } from '../seed';
import { canBecome, type Transition } from '../../../src/engine';
import { activeLore, CONTAINER_ID, contributedViews, loreCli, loreExtension, skip, viewNamed } from './lore';
import { ui, uiAvailable } from './ui';

const EXPECTED_VIEWS = [/decisions/i, /docs|runbooks/i, /dead ?ends/i, /drift/i, /inbox/i];

describe('Lore sidebar', () => {
  before(async () => {
    await activeLore();
  });

  it('contributes an activity-bar container with Decisions, Runbooks & Docs, Dead Ends, Drift and Inbox', () => {
    const containers = (loreExtension().packageJSON.contributes?.viewsContainers?.activitybar ?? []) as {
      id: string;
    }[];
    assert.ok(
      containers.some((c) => c.id === CONTAINER_ID),
      `no activity-bar container "${CONTAINER_ID}"`,
    );
    for (const pattern of EXPECTED_VIEWS) viewNamed(pattern);
    assert.equal(contributedViews().length, EXPECTED_VIEWS.length);
  });

  it('opens every view', async () => {
    await vscode.commands.executeCommand(`workbench.view.extension.${CONTAINER_ID}`);
    for (const view of contributedViews()) await vscode.commands.executeCommand(`${view.id}.focus`);
  });

  it('shows the seeded decision in the Decisions view', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const view = viewNamed(/decisions/i);
    await vscode.commands.executeCommand(`${view.id}.focus`);
    await ui({ action: 'waitForSidebarText', view: view.name, text: SEEDED_DECISION.title });
  });

  it('shows the seeded dead end in the Dead Ends view', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const view = viewNamed(/dead ?ends/i);
    await vscode.commands.executeCommand(`${view.id}.focus`);
    await ui({ action: 'waitForSidebarText', view: view.name, text: SEEDED_DEAD_END.title });
  });

  it('offers Open Anchor only on a record that has anchors (inline and in its context menu)', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    assert.ok(SEEDED_DECISION.anchors.length && !SEEDED_DEAD_END.anchors.length, 'the seed has one of each');
    const offered = async (pattern: RegExp, title: string) => {
      const view = viewNamed(pattern);
      await vscode.commands.executeCommand(`${view.id}.focus`);
      return JSON.parse((await ui({ action: 'treeItemMenu', view: view.name, row: title })) ?? '{}') as {
        inline: string[];
        menu: string[];
      };
    };
    const anchored = await offered(/decisions/i, SEEDED_DECISION.title);
    assert.ok(anchored.inline.includes('Open Anchor'), `inline on the anchored decision: ${JSON.stringify(anchored)}`);
    assert.ok(anchored.menu.includes('Open Anchor'), `in its menu: ${JSON.stringify(anchored)}`);
    const bare = await offered(/dead ?ends/i, SEEDED_DEAD_END.title);
    assert.ok(bare.menu.includes('Open'), `the dead end's menu is read: ${JSON.stringify(bare)}`);
    assert.ok(
      !bare.inline.includes('Open Anchor') && !bare.menu.includes('Open Anchor'),
      `not on the dead end: ${JSON.stringify(bare)}`,
    );
  });

  it("offers on a superseded memory's row only the lifecycle acts the engine allows", async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const remember = (key: string, title: string) =>
      loreCli(['remember', '--type', 'decision', '--key', key, '--title', title, '--description', `${title}.`]);
    await remember('decision/session-cookies', 'Sessions in signed cookies');
    await remember('decision/session-store', 'Sessions in the shared store');
    await loreCli(['supersede', 'decision/session-cookies', '--by', 'decision/session-store']);
    const view = viewNamed(/decisions/i);
    await vscode.commands.executeCommand(`${view.id}.focus`);
    await ui({ action: 'waitForSidebarText', view: view.name, text: 'superseded · Sessions in signed cookies.' });
    const { menu } = JSON.parse(
      (await ui({
        action: 'treeItemMenu',
        view: view.name,
        row: 'Sessions in signed cookies',
        screenshot: 'lifecycle-menu-superseded',
      })) ?? '{}',
    ) as { menu: string[] };
    // Each lifecycle command's menu title, and where it leads: offered exactly when canBecome says so.
    const acts: Record<string, Transition> = {
      'lore.deprecate': 'deprecated',
      'lore.dispute': 'disputed',
      'lore.retract': 'retracted',
      'lore.supersede': 'superseded',
      'lore.promote': 'active',
    };
    const commands = loreExtension().packageJSON.contributes.commands as { command: string; title: string }[];
    const titleOf = (command: string) => commands.find((c) => c.command === command)!.title;
    const offered = Object.keys(acts).filter((command) => menu.includes(titleOf(command)));
    const allowed = Object.keys(acts).filter((command) => canBecome('superseded', acts[command]));
    assert.deepEqual(offered, allowed, `the menu: ${JSON.stringify(menu)}`);
    assert.deepEqual(allowed, ['lore.retract'], 'a superseded record can only be retracted');
  });

  it('names the kinds of indexed document for people in Runbooks & Docs ("ADRs", "Runbooks")', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const view = viewNamed(/docs|runbooks/i);
    await vscode.commands.executeCommand(`${view.id}.focus`);
    for (const label of ['ADRs', 'Runbooks', 'Helm charts'])
      await ui({ action: 'waitForSidebarText', view: view.name, text: label });
  });
});
