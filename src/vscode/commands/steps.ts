// Multi-step input for the commands that ask several things in a row (Remember…): one input box
// per step with the command's title and "step n of N", a Back button, and checks as you type —
// required fields, a length limit shown beside the prompt, and an asynchronous check whose
// finding is a warning (an anchor that does not resolve) you can still accept. Every value
// typed is kept: going Back, or coming back after a failed save, starts from what was typed.

import * as vscode from 'vscode';
import { UserCancelled } from './ui';

export interface Step {
  prompt: string;
  placeholder?: string;
  optional?: boolean;
  /** Characters allowed; shown beside the prompt as `n/limit` while typing. */
  limit?: number;
  /** Changes the prompt as the value changes (e.g. the key a title will be saved under). */
  describe?: (value: string) => string;
  /** A reason the value would not work; shown as a warning that does not block Enter. */
  warn?: (value: string) => Promise<string | undefined>;
  /** A rule the value must keep (a key's format): its message blocks Enter, shown as you type. */
  check?: (value: string) => string | undefined;
  /** The value proposed from the earlier answers (the key from the title), until the person types their own. */
  derive?: (answers: readonly string[]) => string;
}

/** Why a value cannot be accepted, or undefined. */
export function blocking(step: Step, value: string): string | undefined {
  const text = value.trim();
  if (!step.optional && !text) return 'Required.';
  if (step.limit !== undefined && text.length > step.limit) {
    return `${text.length}/${step.limit} characters: ${text.length - step.limit} too many.`;
  }
  return text ? step.check?.(text) : undefined;
}

function promptOf(step: Step, value: string): string {
  const base = step.describe ? step.describe(value) : step.prompt;
  return step.limit !== undefined ? `${base} (${value.trim().length}/${step.limit} characters)` : base;
}

/** Runs the steps from `values` (what was typed before, if anything); resolves with every value, trimmed. */
export async function runSteps(title: string, steps: Step[], values: string[] = []): Promise<string[]> {
  const answers = steps.map((_, i) => values[i] ?? '');
  // What each derived step last proposed: a value still equal to it follows the earlier answers.
  const proposed = steps.map(() => '');
  let index = 0;
  while (index < steps.length) {
    const derive = steps[index].derive;
    if (derive && (!answers[index].trim() || answers[index] === proposed[index])) {
      answers[index] = proposed[index] = derive(answers);
    }
    const outcome = await ask(title, steps, index, answers);
    if (outcome === 'back') index = Math.max(0, index - 1);
    else {
      answers[index] = outcome.value;
      index++;
    }
  }
  return answers.map((a) => a.trim());
}

function ask(title: string, steps: Step[], index: number, answers: string[]): Promise<'back' | { value: string }> {
  const step = steps[index];
  const box = vscode.window.createInputBox();
  box.title = title;
  box.step = index + 1;
  box.totalSteps = steps.length;
  box.placeholder = step.placeholder;
  box.value = answers[index];
  box.ignoreFocusOut = true;
  box.buttons = index > 0 ? [vscode.QuickInputButtons.Back] : [];
  let checked = 0;
  let touched = false;
  const validate = async (value: string) => {
    // What was typed is kept whatever happens next (Back, Escape, a failed save).
    answers[index] = value;
    box.prompt = promptOf(step, value);
    const mine = ++checked;
    const blocked = blocking(step, value);
    if (blocked || !step.warn || !value.trim()) {
      // An empty required field is pointed out once the person has typed or pressed Enter.
      const shown = blocked && (touched || value.trim()) ? blocked : undefined;
      box.validationMessage = shown ? { message: shown, severity: vscode.InputBoxValidationSeverity.Error } : undefined;
      return;
    }
    const warning = await step.warn(value).catch(() => undefined);
    if (mine !== checked) return;
    const severity = vscode.InputBoxValidationSeverity.Warning;
    box.validationMessage = warning ? { message: `${warning}. Press Enter to keep it anyway.`, severity } : undefined;
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: 'back' | { value: string } | Error) => {
      if (settled) return;
      settled = true;
      box.hide();
      box.dispose();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    box.onDidChangeValue((value) => {
      touched = true;
      void validate(value);
    });
    box.onDidTriggerButton((button) => button === vscode.QuickInputButtons.Back && finish('back'));
    box.onDidAccept(() => {
      touched = true;
      if (blocking(step, box.value)) return void validate(box.value);
      finish({ value: box.value });
    });
    box.onDidHide(() => finish(new UserCancelled()));
    void validate(box.value);
    box.show();
  });
}
