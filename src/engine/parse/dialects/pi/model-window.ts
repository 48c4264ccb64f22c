import { PI_MODEL_WINDOWS, PI_MODELS_SOURCE } from './models';

// The window pi gives the model a log names (the descriptor's `modelWindow`, read by the window
// inference in parse/context-window): pi compacts against the running model's `contextWindow`
// (badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/agent-session.ts:1749),
// its registry's (models.ts) unless the user defines the model.

/** pi's registry as provider → model id → window, built on first use. */
let registry: Map<string, Map<string, number>> | undefined;

function getRegistry(): Map<string, Map<string, number>> {
  if (registry) return registry;
  registry = new Map();
  for (const [provider, byWindow] of Object.entries(PI_MODEL_WINDOWS)) {
    const ids = new Map<string, number>();
    for (const [tokens, list] of Object.entries(byWindow))
      for (const id of list.split(' ')) ids.set(id, Number(tokens));
    registry.set(provider, ids);
  }
  return registry;
}

/**
 * The window pi gives a model the log names: its registry's `contextWindow` under the provider
 * the calls went through (one model id can differ by provider: an aggregator's window is not
 * the maker's); a log that names no provider takes it only where every provider agrees.
 */
export function getPiModelWindow(
  model: string,
  providers: readonly string[],
): { tokens: number; why: string } | undefined {
  const all = getRegistry();
  for (const provider of providers) {
    const tokens = all.get(provider)?.get(model);
    if (tokens !== undefined)
      return {
        tokens,
        why: `pi's model registry gives ${provider}/${model} a ${tokens.toLocaleString('en-US')}-token contextWindow (${PI_MODELS_SOURCE})`,
      };
  }
  if (providers.length > 0) return undefined;
  const found = new Set([...all.values()].flatMap((ids) => (ids.has(model) ? [ids.get(model)!] : [])));
  if (found.size !== 1) return undefined;
  const [tokens] = found as Set<number>;
  return {
    tokens: tokens!,
    why: `pi's model registry gives ${model} a ${tokens!.toLocaleString('en-US')}-token contextWindow under every provider that lists it (${PI_MODELS_SOURCE})`,
  };
}

/** Whether pi's registry has this provider at all (its built-in providers; another is one the user defines). */
function isPiRegistryProvider(provider: string): boolean {
  return getRegistry().has(provider);
}

/**
 * pi's window for a model of a provider its registry does not have: a provider the user defines
 * in ~/.pi/agent/models.json, whose models take a `contextWindow` of 128,000 when the entry
 * leaves it out (badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/model-registry.ts:507).
 * A model missing under a provider the registry has is one newer than the registry read here,
 * which a later pi lists with its own window: not this. The real OpenClaw sessions on the
 * `deepseek` provider compacted at 108,889–110,305 tokens, under a 200k window's threshold and
 * at a 128k one's; OpenClaw's session store states 128,000 for that model.
 */
export const PI_UNLISTED_MODEL_WINDOW = 128_000;

/** Whether `model`'s calls went only through providers pi's registry lacks (the user's own). */
export function isUserDefinedPiModel(providers: readonly string[]): boolean {
  return providers.length > 0 && providers.every((p) => !isPiRegistryProvider(p));
}

/** `getPiModelWindow`, else pi's window for a model of a provider the user defines. */
export function getPiWindowForModel(
  model: string,
  providers: readonly string[],
): { tokens: number; why: string } | undefined {
  const listed = getPiModelWindow(model, providers);
  if (listed || !isUserDefinedPiModel(providers)) return listed;
  return {
    tokens: PI_UNLISTED_MODEL_WINDOW,
    why: `the provider ${providers.join(', ')} is not in pi's model registry (models.generated.ts at 83378aad, 2026-03-15): pi reads its models from ~/.pi/agent/models.json, where a contextWindow left out is ${PI_UNLISTED_MODEL_WINDOW.toLocaleString('en-US')} (model-registry.ts:507)`,
  };
}
