import { create } from 'zustand';

// API keys: held in memory; written to localStorage only when the user ticks "remember", and
// removed from it when they untick it. Never put into runs, exports, URLs, query keys or logs.

const STORAGE_KEY = 'compactlab.anthropic-api-key';
const OPENAI_STORAGE_KEY = 'compactlab.openai-api-key';

function readStored(key: string): string {
  try {
    return globalThis.localStorage?.getItem(key) ?? '';
  } catch {
    return '';
  }
}

function writeStored(key: string, value: string | undefined): void {
  try {
    if (value) globalThis.localStorage?.setItem(key, value);
    else globalThis.localStorage?.removeItem(key);
  } catch {
    // Storage can be disabled; the key then lives in memory only.
  }
}

interface KeyState {
  anthropicKey: string;
  rememberAnthropic: boolean;
  openaiKey: string;
  rememberOpenai: boolean;
  setAnthropicKey(key: string): void;
  setRememberAnthropic(remember: boolean): void;
  setOpenaiKey(key: string): void;
  setRememberOpenai(remember: boolean): void;
}

const storedAnthropic = readStored(STORAGE_KEY);
const storedOpenai = readStored(OPENAI_STORAGE_KEY);

export const useKeyStore = create<KeyState>()((set, get) => ({
  anthropicKey: storedAnthropic,
  rememberAnthropic: storedAnthropic !== '',
  openaiKey: storedOpenai,
  rememberOpenai: storedOpenai !== '',
  setAnthropicKey: (anthropicKey) => {
    set({ anthropicKey });
    if (get().rememberAnthropic) writeStored(STORAGE_KEY, anthropicKey);
  },
  setRememberAnthropic: (rememberAnthropic) => {
    set({ rememberAnthropic });
    writeStored(STORAGE_KEY, rememberAnthropic ? get().anthropicKey : undefined);
  },
  setOpenaiKey: (openaiKey) => {
    set({ openaiKey });
    if (get().rememberOpenai) writeStored(OPENAI_STORAGE_KEY, openaiKey);
  },
  setRememberOpenai: (rememberOpenai) => {
    set({ rememberOpenai });
    writeStored(OPENAI_STORAGE_KEY, rememberOpenai ? get().openaiKey : undefined);
  },
}));
