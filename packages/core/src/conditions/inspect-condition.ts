import type { ASTNode } from '@marcbachmann/cel-js';
import { BOUNDED_MATCHES, boundedRegex } from './condition-environment.ts';

/**
 * Rules on a parsed condition that the CEL library has no limit for. Each AST node is evaluated
 * at most once per evaluation, except inside list macros (once per element), so the work of a
 * condition stays proportional to its size times the size of the data it reads, as long as:
 * - list macros (`all`, `exists`, `exists_one`, `filter`, `map`) do not nest: nested loops
 *   multiply (`[..].map(x, [..].map(y, ...))`);
 * - `cel.bind` (the whole `cel` namespace) is not used and `map` is used at most once: both let
 *   a value be doubled again and again (`x + x`), growing exponentially with the expression's
 *   length;
 * - no macro iterates over `split(...)`, whose length follows the message's length;
 * - `matches` patterns are valid for the bounded regex engine (checked now when literal).
 */

const LIST_MACROS = new Set(['all', 'exists', 'exists_one', 'filter', 'map']);

export interface ConditionShape {
  readonly usesMessage: boolean;
  readonly usesInteraction: boolean;
  /** Why the condition is refused; empty when it is fine. */
  readonly problems: readonly string[];
}

interface Scope {
  readonly inLoop: boolean;
  /** Iteration variables that hide `message` or `interaction` here. */
  readonly hidden: ReadonlySet<string>;
}

/**
 * Checks the rules above and renames `.matches(...)` calls to the bounded implementation (the
 * tree is modified in place, before it is type-checked).
 */
export function inspectCondition(root: ASTNode): ConditionShape {
  const used = new Set<string>();
  const problems: string[] = [];
  let maps = 0;

  const visit = (node: ASTNode, scope: Scope): void => {
    if (node.op === 'id' && !scope.hidden.has(node.args)) {
      used.add(node.args);
      if (node.args === 'cel') {
        problems.push('the cel namespace (cel.bind) is not available in conditions');
      }
    }
    if (node.op === 'call' && node.args[0] === 'matches' && node.args[1].length === 2) {
      checkPattern(node.args[1][1]!, problems);
    }
    if (node.op === 'rcall') {
      const [name, receiver, args] = node.args;
      const iterVar = args[0]?.op === 'id' ? args[0].args : undefined;
      if (LIST_MACROS.has(name) && iterVar !== undefined && args.length >= 2) {
        if (scope.inLoop) problems.push(`${name}() may not be nested inside another list macro`);
        if (name === 'map' && ++maps === 2) {
          problems.push('map() may be used only once per condition');
        }
        if (callsSplit(receiver)) {
          problems.push(`${name}() may not iterate over split(); use contains() or matches()`);
        }
        visit(receiver, scope);
        const inner: Scope = { inLoop: true, hidden: new Set(scope.hidden).add(iterVar) };
        for (const arg of args.slice(1)) visit(arg, inner);
        return;
      }
      if ((name === 'matches' || name === BOUNDED_MATCHES) && args.length === 1) {
        checkPattern(args[0]!, problems);
        node.args[0] = BOUNDED_MATCHES;
      }
    }
    for (const child of childrenOf(node)) visit(child, scope);
  };

  visit(root, { inLoop: false, hidden: new Set() });
  return {
    usesMessage: used.has('message'),
    usesInteraction: used.has('interaction'),
    problems,
  };
}

/** Validates a literal pattern now (and caches it); other patterns are checked when they run. */
function checkPattern(pattern: ASTNode, problems: string[]): void {
  if (pattern.op !== 'value' || typeof pattern.args !== 'string') return;
  try {
    boundedRegex(pattern.args);
  } catch (error) {
    problems.push(
      `matches() pattern ${JSON.stringify(pattern.args)} is not usable: ${(error as Error).message}`,
    );
  }
}

function callsSplit(node: ASTNode): boolean {
  if (node.op === 'rcall' && node.args[0] === 'split') return true;
  return childrenOf(node).some(callsSplit);
}

function childrenOf(node: ASTNode): readonly ASTNode[] {
  switch (node.op) {
    case 'value':
    case 'id':
      return [];
    case '.':
    case '.?':
      return [node.args[0]];
    case '!_':
    case '-_':
      return [node.args];
    case 'list':
      return node.args;
    case 'map':
      return node.args.flat();
    case 'call':
      return node.args[1];
    case 'rcall':
      return [node.args[1], ...node.args[2]];
    default:
      return node.args;
  }
}
