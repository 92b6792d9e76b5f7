import type { ASTNode } from '@marcbachmann/cel-js';
import { MAX_PATTERN_LENGTH, MIN_PATTERN_WIDTH } from './bounded-regex.ts';
import type { ConditionCost } from './condition-budget.ts';
import { MAX_METADATA_VALUES } from './condition-value.ts';

/*
 * The estimate of a condition's worst-case work (condition-budget.ts has the units, the budget
 * and the refusal rules). Weights were measured on the slowest input of each operation.
 */

/** Units per evaluated syntax-tree node (the evaluator's own overhead, paid per iteration). */
const NODE = 20;
/**
 * Units per regex step (input character x pattern width, as bounded-regex.ts counts them):
 * re2js was measured at up to ~60 ns per step.
 */
export const REGEX_STEP_UNITS = 12.5;

/** Units per input character of each function; anything not listed costs DEFAULT_PER_CHAR. */
const PER_CHAR: Readonly<Record<string, number>> = {
  size: 2,
  contains: 2,
  startsWith: 2,
  endsWith: 2,
  indexOf: 2,
  lastIndexOf: 2,
  int: 2,
  uint: 2,
  double: 2,
  bool: 2,
  dyn: 0,
  type: 0,
  // One new string per piece: the slowest per character (measured 40-140 ns).
  split: 32,
  lowerAscii: 6,
  upperAscii: 6,
  trim: 6,
  substring: 6,
  join: 8,
  string: 8,
};
/** Functions whose result is no larger than their input (a string transformed or cut). */
const SAME_SIZE = new Set([
  'lowerAscii',
  'upperAscii',
  'trim',
  'substring',
  'join',
  'string',
  'dyn',
]);
const DEFAULT_PER_CHAR = 16;
/** Result size, as a multiple of the arguments' size, of functions that build a value. */
const GROWTH = 4;
/** Functions whose result is a small value (a number, a bool), whatever their input. */
const SMALL_RESULT = new Set([
  'size',
  'contains',
  'startsWith',
  'endsWith',
  'indexOf',
  'lastIndexOf',
  'int',
  'uint',
  'double',
  'bool',
  'has',
  'type',
  'duration',
  'timestamp',
]);
const LIST_MACROS = new Set(['all', 'exists', 'exists_one', 'filter', 'map']);
/** Fields of `message` and `interaction` that are small whatever the message. */
const SMALL_FIELDS = new Set([
  'role',
  'isError',
  'tokenCount',
  'index',
  'messageCount',
  'hasError',
  'isCurrent',
]);

/** `c + n*N + x*X`, where X is the size of the current macro element. */
interface Lin {
  readonly c: number;
  readonly n: number;
  readonly x: number;
}

interface Estimate {
  /** Upper bound of the value's size (characters, elements, entries, nested). */
  readonly size: Lin;
  /** Upper bound of the number of elements a macro iterates over the value. */
  readonly len: Lin;
  readonly cost: Lin;
}

const lin = (c: number, n = 0, x = 0): Lin => ({ c, n, x });
const ONE = lin(1);
const add = (...terms: Lin[]): Lin =>
  terms.reduce((a, b) => lin(a.c + b.c, a.n + b.n, a.x + b.x), lin(0));
const scale = (k: number, a: Lin): Lin => lin(k * a.c, k * a.n, k * a.x);
const max = (a: Lin, b: Lin): Lin =>
  lin(Math.max(a.c, b.c), Math.max(a.n, b.n), Math.max(a.x, b.x));

/** a * b, where neither depends on X; N² terms become an infinite N coefficient. */
function times(a: Lin, b: Lin): Lin {
  const n = a.c * b.n + a.n * b.c + (a.n > 0 && b.n > 0 ? Number.POSITIVE_INFINITY : 0);
  return lin(a.c * b.c, n);
}

/** The worst-case cost of the condition whose (already inspected) tree is `root`. */
export function estimateConditionCost(root: ASTNode): ConditionCost {
  let readsMetadata = false;
  let perElementPerInput = 0;
  /** Iteration variable of the enclosing macro, if any (macros do not nest). */
  let element: string | undefined;

  const visit = (node: ASTNode): Estimate => {
    switch (node.op) {
      case 'value':
        return {
          size: lin(typeof node.args === 'string' ? Math.max(1, node.args.length) : 1),
          len: ONE,
          cost: lin(NODE),
        };
      case 'id': {
        const input = lin(0, 1);
        if (node.args === element)
          return { size: lin(0, 0, 1), len: lin(0, 0, 1), cost: lin(NODE) };
        if (node.args === 'message' || node.args === 'interaction') {
          return { size: input, len: input, cost: lin(NODE) };
        }
        return { size: ONE, len: ONE, cost: lin(NODE) };
      }
      case '.':
      case '.?': {
        const [operand, field] = node.args;
        const of = visit(operand);
        const cost = add(of.cost, lin(NODE));
        if (operand.op === 'id' && (operand.args === 'message' || operand.args === 'interaction')) {
          if (SMALL_FIELDS.has(field)) return { size: lin(16), len: ONE, cost };
          if (field === 'metadata') {
            readsMetadata = true;
            return { size: of.size, len: lin(MAX_METADATA_VALUES), cost };
          }
        }
        return { size: of.size, len: of.len, cost };
      }
      case '[]':
      case '[?]': {
        const [operand, index] = node.args.map(visit) as [Estimate, Estimate];
        return {
          size: operand.size,
          len: operand.len,
          cost: add(operand.cost, index.cost, scale(1, index.size), lin(NODE)),
        };
      }
      case 'list':
      case 'map': {
        const parts = (node.op === 'list' ? node.args : node.args.flat()).map(visit);
        const size = add(lin(parts.length), ...parts.map((p) => p.size));
        return {
          size,
          len: lin(node.args.length),
          cost: add(lin(NODE), ...parts.map((p) => p.cost)),
        };
      }
      case '!_':
      case '-_': {
        const of = visit(node.args);
        return { size: lin(16), len: ONE, cost: add(of.cost, lin(NODE)) };
      }
      case 'call':
        return callCost(node.args[0], node.args[1], undefined);
      case 'rcall': {
        const [name, receiver, args] = node.args;
        const iterVar = args[0]?.op === 'id' ? args[0].args : undefined;
        if (LIST_MACROS.has(name) && iterVar !== undefined && args.length >= 2) {
          return macroCost(name, receiver, iterVar, args.slice(1));
        }
        return callCost(name, args, receiver);
      }
      default:
        return operatorCost(node.op, (node.args as ASTNode[]).map(visit));
    }
  };

  const operatorCost = (op: string, parts: Estimate[]): Estimate => {
    const cost = add(lin(NODE), ...parts.map((p) => p.cost));
    const sizes = add(...parts.map((p) => p.size));
    switch (op) {
      case '+':
        return {
          size: sizes,
          len: add(...parts.map((p) => p.len)),
          cost: add(cost, scale(6, sizes)),
        };
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
      case 'in':
        return { size: lin(16), len: ONE, cost: add(cost, sizes) };
      case '?:':
      case '||':
      case '&&': {
        const branches = parts.slice(op === '?:' ? 1 : 0);
        const size = branches.map((p) => p.size).reduce(max, lin(0));
        return { size, len: branches.map((p) => p.len).reduce(max, lin(0)), cost };
      }
      default:
        // Arithmetic on numbers (ints are 64-bit, so they do not grow).
        return { size: lin(16), len: ONE, cost };
    }
  };

  const callCost = (name: string, args: readonly ASTNode[], receiver?: ASTNode): Estimate => {
    if (name === 'has') return { size: ONE, len: ONE, cost: lin(NODE * 4) };
    const parts = (receiver === undefined ? args : [receiver, ...args]).map(visit);
    const cost = add(lin(NODE), ...parts.map((p) => p.cost));
    const sizes = add(...parts.map((p) => p.size));
    if (name === 'matches' || name === 'memBoundedMatches') {
      const [input, pattern] = parts as [Estimate, Estimate];
      const width = regexWidth(pattern.size);
      return { size: ONE, len: ONE, cost: add(cost, scale(REGEX_STEP_UNITS * width, input.size)) };
    }
    const perChar = PER_CHAR[name] ?? DEFAULT_PER_CHAR;
    if (SMALL_RESULT.has(name))
      return { size: lin(16), len: ONE, cost: add(cost, scale(perChar, sizes)) };
    if (SAME_SIZE.has(name))
      return { size: sizes, len: sizes, cost: add(cost, scale(perChar, sizes)) };
    const size = scale(GROWTH, add(ONE, sizes));
    return { size, len: size, cost: add(cost, scale(perChar, sizes), size) };
  };

  const macroCost = (
    name: string,
    receiver: ASTNode,
    iterVar: string,
    body: readonly ASTNode[],
  ): Estimate => {
    const over = visit(receiver);
    const outer = element;
    element = iterVar;
    const parts = body.map(visit);
    element = outer;
    const step = add(lin(NODE * 2), ...parts.map((p) => p.cost));
    // Per element: the body's fixed and message-dependent work; its element-dependent work
    // sums to at most the receiver's size over all elements.
    const perElement = lin(step.c, step.n);
    perElementPerInput = Math.max(perElementPerInput, step.n);
    const cost = add(over.cost, times(over.len, perElement), scale(step.x, over.size));
    if (name !== 'map')
      return { size: name === 'filter' ? over.size : lin(16), len: over.len, cost };
    const out = parts[parts.length - 1]!.size;
    const size = add(times(over.len, lin(out.c, out.n)), scale(out.x, over.size));
    return { size, len: over.len, cost };
  };

  const total = visit(root).cost;
  return { constant: total.c, perInput: total.n + total.x, readsMetadata, perElementPerInput };
}

/** Regex steps per input character for a pattern of this size. */
function regexWidth(pattern: Lin): number {
  if (pattern.n > 0 || pattern.x > 0) return MAX_PATTERN_LENGTH;
  return Math.min(MAX_PATTERN_LENGTH, Math.max(MIN_PATTERN_WIDTH, pattern.c));
}
