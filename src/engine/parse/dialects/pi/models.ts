// pi's context window per model: its registry, badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/ai/src/models.generated.ts
// (794 models), written by scripts/gen-pi-models.ts; do not edit. pi compacts against the window of
// the model it runs (agent-session.ts `this.model.contextWindow`); a model the user defines in
// ~/.pi/agent/models.json is not here. Provider → window → the model ids (space-separated).

export const PI_MODELS_SOURCE =
  'badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/ai/src/models.generated.ts';

export const PI_MODEL_WINDOWS: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  'amazon-bedrock': {
    16384: 'qwen.qwen3-32b-v1:0',
    32000: 'mistral.voxtral-small-24b-2507',
    122880: 'writer.palmyra-x4-v1:0',
    128000:
      'amazon.nova-2-lite-v1:0 amazon.nova-micro-v1:0 deepseek.r1-v1:0 google.gemma-3-4b-it meta.llama3-1-405b-instruct-v1:0 meta.llama3-1-70b-instruct-v1:0 meta.llama3-1-8b-instruct-v1:0 meta.llama3-2-11b-instruct-v1:0 meta.llama3-2-90b-instruct-v1:0 meta.llama3-3-70b-instruct-v1:0 mistral.magistral-small-2509 mistral.ministral-3-14b-instruct mistral.ministral-3-8b-instruct mistral.pixtral-large-2502-v1:0 mistral.voxtral-mini-3b-2507 nvidia.nemotron-nano-12b-v2 nvidia.nemotron-nano-3-30b nvidia.nemotron-nano-9b-v2 openai.gpt-oss-120b-1:0 openai.gpt-oss-20b-1:0 openai.gpt-oss-safeguard-120b openai.gpt-oss-safeguard-20b',
    131000: 'meta.llama3-2-1b-instruct-v1:0 meta.llama3-2-3b-instruct-v1:0',
    131072: 'qwen.qwen3-coder-480b-a35b-v1:0',
    163840: 'deepseek.v3-v1:0 deepseek.v3.2',
    200000:
      'anthropic.claude-3-5-haiku-20241022-v1:0 anthropic.claude-3-5-sonnet-20240620-v1:0 anthropic.claude-3-5-sonnet-20241022-v2:0 anthropic.claude-3-7-sonnet-20250219-v1:0 anthropic.claude-3-haiku-20240307-v1:0 anthropic.claude-haiku-4-5-20251001-v1:0 anthropic.claude-opus-4-1-20250805-v1:0 anthropic.claude-opus-4-20250514-v1:0 anthropic.claude-opus-4-5-20251101-v1:0 anthropic.claude-sonnet-4-20250514-v1:0 anthropic.claude-sonnet-4-5-20250929-v1:0 eu.anthropic.claude-haiku-4-5-20251001-v1:0 eu.anthropic.claude-opus-4-5-20251101-v1:0 eu.anthropic.claude-sonnet-4-20250514-v1:0 eu.anthropic.claude-sonnet-4-5-20250929-v1:0 global.anthropic.claude-haiku-4-5-20251001-v1:0 global.anthropic.claude-opus-4-5-20251101-v1:0 global.anthropic.claude-sonnet-4-20250514-v1:0 global.anthropic.claude-sonnet-4-5-20250929-v1:0 us.anthropic.claude-haiku-4-5-20251001-v1:0 us.anthropic.claude-opus-4-1-20250805-v1:0 us.anthropic.claude-opus-4-20250514-v1:0 us.anthropic.claude-opus-4-5-20251101-v1:0 us.anthropic.claude-sonnet-4-20250514-v1:0 us.anthropic.claude-sonnet-4-5-20250929-v1:0 zai.glm-4.7-flash',
    202752: 'google.gemma-3-27b-it',
    204608: 'minimax.minimax-m2',
    204800: 'minimax.minimax-m2.1 zai.glm-4.7',
    256000:
      'mistral.devstral-2-123b mistral.ministral-3-3b-instruct mistral.mistral-large-3-675b-instruct moonshot.kimi-k2-thinking moonshotai.kimi-k2.5',
    262000: 'qwen.qwen3-next-80b-a3b qwen.qwen3-vl-235b-a22b',
    262144: 'qwen.qwen3-235b-a22b-2507-v1:0 qwen.qwen3-coder-30b-a3b-v1:0',
    300000: 'amazon.nova-lite-v1:0 amazon.nova-pro-v1:0',
    1000000:
      'amazon.nova-premier-v1:0 anthropic.claude-opus-4-6-v1 anthropic.claude-sonnet-4-6 eu.anthropic.claude-opus-4-6-v1 eu.anthropic.claude-sonnet-4-6 global.anthropic.claude-opus-4-6-v1 global.anthropic.claude-sonnet-4-6 meta.llama4-maverick-17b-instruct-v1:0 us.anthropic.claude-opus-4-6-v1 us.anthropic.claude-sonnet-4-6',
    1040000: 'writer.palmyra-x5-v1:0',
    3500000: 'meta.llama4-scout-17b-instruct-v1:0',
  },
  anthropic: {
    200000:
      'claude-3-5-haiku-20241022 claude-3-5-haiku-latest claude-3-5-sonnet-20240620 claude-3-5-sonnet-20241022 claude-3-7-sonnet-20250219 claude-3-7-sonnet-latest claude-3-haiku-20240307 claude-3-opus-20240229 claude-3-sonnet-20240229 claude-haiku-4-5 claude-haiku-4-5-20251001 claude-opus-4-0 claude-opus-4-1 claude-opus-4-1-20250805 claude-opus-4-20250514 claude-opus-4-5 claude-opus-4-5-20251101 claude-sonnet-4-0 claude-sonnet-4-20250514 claude-sonnet-4-5 claude-sonnet-4-5-20250929',
    1000000: 'claude-opus-4-6 claude-sonnet-4-6',
  },
  'azure-openai-responses': {
    8192: 'gpt-4',
    128000:
      'gpt-4-turbo gpt-4o gpt-4o-2024-05-13 gpt-4o-2024-08-06 gpt-4o-2024-11-20 gpt-4o-mini gpt-5-chat-latest gpt-5.1-chat-latest gpt-5.2-chat-latest gpt-5.3-codex-spark',
    200000: 'codex-mini-latest o1 o1-pro o3 o3-deep-research o3-mini o3-pro o4-mini o4-mini-deep-research',
    272000: 'gpt-5.4',
    400000:
      'gpt-5 gpt-5-codex gpt-5-mini gpt-5-nano gpt-5-pro gpt-5.1 gpt-5.1-codex gpt-5.1-codex-max gpt-5.1-codex-mini gpt-5.2 gpt-5.2-codex gpt-5.2-pro gpt-5.3-codex',
    1047576: 'gpt-4.1 gpt-4.1-mini gpt-4.1-nano',
    1050000: 'gpt-5.4-pro',
  },
  cerebras: {
    32000: 'llama3.1-8b',
    131000: 'qwen-3-235b-a22b-instruct-2507',
    131072: 'gpt-oss-120b zai-glm-4.7',
  },
  'github-copilot': {
    64000: 'gpt-4.1 gpt-4o',
    128000:
      'claude-haiku-4.5 claude-opus-4.5 claude-opus-4.6 claude-sonnet-4 claude-sonnet-4.5 claude-sonnet-4.6 gemini-2.5-pro gemini-3-flash-preview gemini-3-pro-preview gemini-3.1-pro-preview gpt-5 gpt-5-mini gpt-5.1 gpt-5.1-codex gpt-5.1-codex-max gpt-5.1-codex-mini grok-code-fast-1',
    264000: 'gpt-5.2',
    400000: 'gpt-5.2-codex gpt-5.3-codex gpt-5.4',
  },
  google: {
    128000: 'gemini-live-2.5-flash',
    131072: 'gemini-live-2.5-flash-preview-native-audio',
    1000000: 'gemini-1.5-flash gemini-1.5-flash-8b gemini-1.5-pro gemini-3-pro-preview',
    1048576:
      'gemini-2.0-flash gemini-2.0-flash-lite gemini-2.5-flash gemini-2.5-flash-lite gemini-2.5-flash-lite-preview-06-17 gemini-2.5-flash-lite-preview-09-2025 gemini-2.5-flash-preview-04-17 gemini-2.5-flash-preview-05-20 gemini-2.5-flash-preview-09-2025 gemini-2.5-pro gemini-2.5-pro-preview-05-06 gemini-2.5-pro-preview-06-05 gemini-3-flash-preview gemini-3.1-flash-lite-preview gemini-3.1-pro-preview gemini-3.1-pro-preview-customtools gemini-flash-latest gemini-flash-lite-latest',
  },
  'google-antigravity': {
    131072: 'gpt-oss-120b-medium',
    200000:
      'claude-opus-4-5-thinking claude-opus-4-6-thinking claude-sonnet-4-5 claude-sonnet-4-5-thinking claude-sonnet-4-6',
    1048576: 'gemini-3-flash gemini-3.1-pro-high gemini-3.1-pro-low',
  },
  'google-gemini-cli': {
    1048576:
      'gemini-2.0-flash gemini-2.5-flash gemini-2.5-pro gemini-3-flash-preview gemini-3-pro-preview gemini-3.1-pro-preview',
  },
  'google-vertex': {
    1000000: 'gemini-1.5-flash gemini-1.5-flash-8b gemini-1.5-pro gemini-3-pro-preview',
    1048576:
      'gemini-2.0-flash gemini-2.0-flash-lite gemini-2.5-flash gemini-2.5-flash-lite gemini-2.5-flash-lite-preview-09-2025 gemini-2.5-pro gemini-3-flash-preview gemini-3.1-pro-preview',
  },
  groq: {
    8192: 'gemma2-9b-it llama3-70b-8192 llama3-8b-8192',
    32768: 'mistral-saba-24b',
    131072:
      'deepseek-r1-distill-llama-70b llama-3.1-8b-instant llama-3.3-70b-versatile meta-llama/llama-4-maverick-17b-128e-instruct meta-llama/llama-4-scout-17b-16e-instruct moonshotai/kimi-k2-instruct openai/gpt-oss-120b openai/gpt-oss-20b qwen-qwq-32b qwen/qwen3-32b',
    262144: 'moonshotai/kimi-k2-instruct-0905',
  },
  huggingface: {
    131072: 'moonshotai/Kimi-K2-Instruct',
    163840: 'deepseek-ai/DeepSeek-R1-0528 deepseek-ai/DeepSeek-V3.2',
    200000: 'zai-org/GLM-4.7-Flash',
    202752: 'zai-org/GLM-5',
    204800: 'MiniMaxAI/MiniMax-M2.1 MiniMaxAI/MiniMax-M2.5 zai-org/GLM-4.7',
    262144:
      'Qwen/Qwen3-235B-A22B-Thinking-2507 Qwen/Qwen3-Coder-480B-A35B-Instruct Qwen/Qwen3-Coder-Next Qwen/Qwen3-Next-80B-A3B-Instruct Qwen/Qwen3-Next-80B-A3B-Thinking Qwen/Qwen3.5-397B-A17B XiaomiMiMo/MiMo-V2-Flash moonshotai/Kimi-K2-Instruct-0905 moonshotai/Kimi-K2-Thinking moonshotai/Kimi-K2.5',
  },
  'kimi-coding': {
    262144: 'k2p5 kimi-k2-thinking',
  },
  minimax: {
    196608: 'MiniMax-M2',
    204800: 'MiniMax-M2.1 MiniMax-M2.5 MiniMax-M2.5-highspeed',
  },
  'minimax-cn': {
    196608: 'MiniMax-M2',
    204800: 'MiniMax-M2.1 MiniMax-M2.5 MiniMax-M2.5-highspeed',
  },
  mistral: {
    8000: 'open-mistral-7b',
    32000: 'open-mixtral-8x7b',
    64000: 'open-mixtral-8x22b',
    128000:
      'devstral-medium-2507 devstral-small-2505 devstral-small-2507 magistral-medium-latest magistral-small ministral-3b-latest ministral-8b-latest mistral-medium-latest mistral-nemo mistral-small-2506 mistral-small-latest pixtral-12b pixtral-large-latest',
    131072: 'mistral-large-2411 mistral-medium-2505',
    256000: 'codestral-latest labs-devstral-small-2512',
    262144:
      'devstral-2512 devstral-medium-latest mistral-large-2512 mistral-large-latest mistral-medium-2508',
  },
  openai: {
    8192: 'gpt-4',
    128000:
      'gpt-4-turbo gpt-4o gpt-4o-2024-05-13 gpt-4o-2024-08-06 gpt-4o-2024-11-20 gpt-4o-mini gpt-5-chat-latest gpt-5.1-chat-latest gpt-5.2-chat-latest gpt-5.3-codex-spark',
    200000: 'codex-mini-latest o1 o1-pro o3 o3-deep-research o3-mini o3-pro o4-mini o4-mini-deep-research',
    272000: 'gpt-5.4',
    400000:
      'gpt-5 gpt-5-codex gpt-5-mini gpt-5-nano gpt-5-pro gpt-5.1 gpt-5.1-codex gpt-5.1-codex-max gpt-5.1-codex-mini gpt-5.2 gpt-5.2-codex gpt-5.2-pro gpt-5.3-codex',
    1047576: 'gpt-4.1 gpt-4.1-mini gpt-4.1-nano',
    1050000: 'gpt-5.4-pro',
  },
  'openai-codex': {
    128000: 'gpt-5.3-codex-spark',
    272000: 'gpt-5.1 gpt-5.1-codex-max gpt-5.1-codex-mini gpt-5.2 gpt-5.2-codex gpt-5.3-codex gpt-5.4',
  },
  opencode: {
    200000:
      'big-pickle claude-3-5-haiku claude-haiku-4-5 claude-opus-4-1 claude-opus-4-5 claude-sonnet-4 claude-sonnet-4-5',
    204800: 'glm-4.6 glm-4.7 glm-5 minimax-m2.1 minimax-m2.5 minimax-m2.5-free',
    262144: 'kimi-k2.5 mimo-v2-flash-free',
    272000: 'gpt-5.4',
    400000:
      'gpt-5 gpt-5-codex gpt-5-nano gpt-5.1 gpt-5.1-codex gpt-5.1-codex-max gpt-5.1-codex-mini gpt-5.2 gpt-5.2-codex gpt-5.3-codex',
    1000000: 'claude-opus-4-6 claude-sonnet-4-6 nemotron-3-super-free',
    1048576: 'gemini-3-flash gemini-3-pro gemini-3.1-pro',
    1050000: 'gpt-5.4-pro',
  },
  'opencode-go': {
    204800: 'glm-5 minimax-m2.5',
    262144: 'kimi-k2.5',
  },
  openrouter: {
    4095: 'openai/gpt-3.5-turbo-0613',
    8191: 'openai/gpt-4 openai/gpt-4-0314',
    8192: 'meta-llama/llama-3-8b-instruct sao10k/l3-euryale-70b',
    16384: 'meta-llama/llama-3.1-8b-instruct',
    16385: 'openai/gpt-3.5-turbo openai/gpt-3.5-turbo-16k',
    30000: 'baidu/ernie-4.5-vl-28b-a3b',
    32000: 'mistralai/voxtral-small-24b-2507',
    32768:
      'deepseek/deepseek-chat-v3.1 essentialai/rnj-1-instruct mistralai/mistral-saba mistralai/mistral-small-24b-instruct-2501 mistralai/mistral-small-creative mistralai/mixtral-8x7b-instruct qwen/qwen-2.5-72b-instruct qwen/qwen-2.5-7b-instruct qwen/qwen-max qwen/qwen3-30b-a3b-thinking-2507 qwen/qwq-32b thedrummer/rocinante-12b thedrummer/unslopnemo-12b',
    40960: 'qwen/qwen3-14b qwen/qwen3-30b-a3b qwen/qwen3-32b qwen/qwen3-4b:free qwen/qwen3-8b',
    64000: 'deepseek/deepseek-r1',
    65536: 'allenai/olmo-3.1-32b-instruct mistralai/mixtral-8x22b-instruct z-ai/glm-4.5v',
    120000: 'baidu/ernie-4.5-21b-a3b',
    128000:
      'amazon/nova-micro-v1 cohere/command-r-08-2024 cohere/command-r-plus-08-2024 google/gemma-3-27b-it inception/mercury inception/mercury-2 inception/mercury-coder meta-llama/llama-3.3-70b-instruct:free mistralai/mistral-large mistralai/mistral-small-3.1-24b-instruct:free nvidia/nemotron-nano-12b-v2-vl:free nvidia/nemotron-nano-9b-v2:free openai/gpt-4-1106-preview openai/gpt-4-turbo openai/gpt-4-turbo-preview openai/gpt-4o openai/gpt-4o-2024-05-13 openai/gpt-4o-2024-08-06 openai/gpt-4o-2024-11-20 openai/gpt-4o-audio-preview openai/gpt-4o-mini openai/gpt-4o-mini-2024-07-18 openai/gpt-4o:extended openai/gpt-5.1-chat openai/gpt-5.2-chat openai/gpt-5.3-chat upstage/solar-pro-3 z-ai/glm-4-32b',
    131000: 'arcee-ai/trinity-large-preview:free moonshotai/kimi-k2',
    131072:
      'alibaba/tongyi-deepresearch-30b-a3b arcee-ai/trinity-mini arcee-ai/trinity-mini:free arcee-ai/virtuoso-large google/gemma-3-27b-it:free meituan/longcat-flash-chat meta-llama/llama-3.1-70b-instruct meta-llama/llama-3.3-70b-instruct mistralai/devstral-medium mistralai/devstral-small mistralai/ministral-3b-2512 mistralai/mistral-large-2407 mistralai/mistral-large-2411 mistralai/mistral-medium-3 mistralai/mistral-medium-3.1 mistralai/mistral-nemo mistralai/mistral-small-3.2-24b-instruct mistralai/pixtral-large-2411 moonshotai/kimi-k2-0905 moonshotai/kimi-k2-thinking nex-agi/deepseek-v3.1-nex-n1 nvidia/llama-3.1-nemotron-70b-instruct nvidia/llama-3.3-nemotron-super-49b-v1.5 nvidia/nemotron-nano-9b-v2 openai/gpt-oss-120b openai/gpt-oss-120b:free openai/gpt-oss-20b openai/gpt-oss-20b:free openai/gpt-oss-safeguard-20b prime-intellect/intellect-3 qwen/qwen-turbo qwen/qwen-vl-max qwen/qwen3-235b-a22b qwen/qwen3-next-80b-a3b-instruct qwen/qwen3-next-80b-a3b-thinking qwen/qwen3-vl-235b-a22b-thinking qwen/qwen3-vl-30b-a3b-instruct qwen/qwen3-vl-30b-a3b-thinking qwen/qwen3-vl-32b-instruct qwen/qwen3-vl-8b-instruct qwen/qwen3-vl-8b-thinking sao10k/l3.1-euryale-70b x-ai/grok-3 x-ai/grok-3-beta x-ai/grok-3-mini x-ai/grok-3-mini-beta z-ai/glm-4.5 z-ai/glm-4.5-air z-ai/glm-4.5-air:free z-ai/glm-4.6v',
    160000: 'qwen/qwen3-coder-30b-a3b-instruct',
    163840:
      'deepseek/deepseek-chat deepseek/deepseek-chat-v3-0324 deepseek/deepseek-r1-0528 deepseek/deepseek-v3.1-terminus deepseek/deepseek-v3.2 deepseek/deepseek-v3.2-exp tngtech/deepseek-r1t2-chimera',
    196608: 'minimax/minimax-m2 minimax/minimax-m2.1 minimax/minimax-m2.5 minimax/minimax-m2.5:free',
    200000:
      'anthropic/claude-3-haiku anthropic/claude-3.5-haiku anthropic/claude-3.5-sonnet anthropic/claude-3.7-sonnet anthropic/claude-3.7-sonnet:thinking anthropic/claude-haiku-4.5 anthropic/claude-opus-4 anthropic/claude-opus-4.1 anthropic/claude-opus-4.5 anthropic/claude-sonnet-4 openai/o1 openai/o3 openai/o3-deep-research openai/o3-mini openai/o3-mini-high openai/o3-pro openai/o4-mini openai/o4-mini-deep-research openai/o4-mini-high openrouter/free',
    202752: 'z-ai/glm-4.7 z-ai/glm-4.7-flash z-ai/glm-5 z-ai/glm-5-turbo',
    204800: 'z-ai/glm-4.6',
    256000:
      'ai21/jamba-large-1.7 kwaipilot/kat-coder-pro mistralai/codestral-2508 nvidia/nemotron-3-nano-30b-a3b:free qwen/qwen3.5-9b relace/relace-search stepfun/step-3.5-flash stepfun/step-3.5-flash:free x-ai/grok-4 x-ai/grok-code-fast-1',
    262000: 'qwen/qwen3-coder:free',
    262144:
      'bytedance-seed/seed-1.6 bytedance-seed/seed-1.6-flash bytedance-seed/seed-2.0-lite bytedance-seed/seed-2.0-mini mistralai/devstral-2512 mistralai/ministral-14b-2512 mistralai/ministral-8b-2512 mistralai/mistral-large-2512 moonshotai/kimi-k2.5 nvidia/nemotron-3-nano-30b-a3b nvidia/nemotron-3-super-120b-a12b:free openrouter/healer-alpha qwen/qwen3-235b-a22b-2507 qwen/qwen3-235b-a22b-thinking-2507 qwen/qwen3-30b-a3b-instruct-2507 qwen/qwen3-coder qwen/qwen3-coder-next qwen/qwen3-max qwen/qwen3-max-thinking qwen/qwen3-next-80b-a3b-instruct:free qwen/qwen3-vl-235b-a22b-instruct qwen/qwen3.5-122b-a10b qwen/qwen3.5-27b qwen/qwen3.5-35b-a3b qwen/qwen3.5-397b-a17b xiaomi/mimo-v2-flash',
    300000: 'amazon/nova-lite-v1 amazon/nova-pro-v1',
    327680: 'meta-llama/llama-4-scout',
    400000:
      'openai/gpt-5 openai/gpt-5-codex openai/gpt-5-image openai/gpt-5-image-mini openai/gpt-5-mini openai/gpt-5-nano openai/gpt-5-pro openai/gpt-5.1 openai/gpt-5.1-codex openai/gpt-5.1-codex-max openai/gpt-5.1-codex-mini openai/gpt-5.2 openai/gpt-5.2-codex openai/gpt-5.2-pro openai/gpt-5.3-codex',
    1000000:
      'amazon/nova-2-lite-v1 amazon/nova-premier-v1 anthropic/claude-opus-4.6 anthropic/claude-sonnet-4.5 anthropic/claude-sonnet-4.6 minimax/minimax-m1 qwen/qwen-plus qwen/qwen-plus-2025-07-28 qwen/qwen-plus-2025-07-28:thinking qwen/qwen3-coder-flash qwen/qwen3-coder-plus qwen/qwen3.5-flash-02-23 qwen/qwen3.5-plus-02-15',
    1047576: 'openai/gpt-4.1 openai/gpt-4.1-mini openai/gpt-4.1-nano',
    1048576:
      'google/gemini-2.0-flash-001 google/gemini-2.0-flash-lite-001 google/gemini-2.5-flash google/gemini-2.5-flash-lite google/gemini-2.5-flash-lite-preview-09-2025 google/gemini-2.5-pro google/gemini-2.5-pro-preview google/gemini-2.5-pro-preview-05-06 google/gemini-3-flash-preview google/gemini-3-pro-preview google/gemini-3.1-flash-lite-preview google/gemini-3.1-pro-preview google/gemini-3.1-pro-preview-customtools meta-llama/llama-4-maverick openrouter/hunter-alpha',
    1050000: 'openai/gpt-5.4 openai/gpt-5.4-pro',
    2000000: 'auto openrouter/auto x-ai/grok-4-fast x-ai/grok-4.1-fast x-ai/grok-4.20-beta',
  },
  'vercel-ai-gateway': {
    4096: 'minimax/minimax-m2.5-highspeed',
    32000: 'inception/mercury-coder-small mistral/mistral-small',
    32768: 'xai/grok-2-vision',
    40960: 'alibaba/qwen-3-14b alibaba/qwen-3-235b alibaba/qwen-3-30b',
    66000: 'zai/glm-4.5v',
    127000: 'perplexity/sonar',
    128000:
      'deepseek/deepseek-r1 deepseek/deepseek-v3.2 deepseek/deepseek-v3.2-thinking inception/mercury-2 meituan/longcat-flash-chat meituan/longcat-flash-thinking meta/llama-3.1-70b meta/llama-3.1-8b meta/llama-3.2-11b meta/llama-3.2-90b meta/llama-3.3-70b meta/llama-4-maverick meta/llama-4-scout mistral/codestral mistral/devstral-small mistral/ministral-3b mistral/ministral-8b mistral/mistral-medium mistral/pixtral-12b mistral/pixtral-large openai/gpt-4-turbo openai/gpt-4o openai/gpt-4o-mini openai/gpt-5-chat openai/gpt-5.1-instant openai/gpt-5.2-chat openai/gpt-5.3-chat openai/gpt-oss-20b vercel/v0-1.0-md vercel/v0-1.5-md zai/glm-4.5 zai/glm-4.5-air zai/glm-4.6v zai/glm-4.6v-flash',
    131000: 'arcee-ai/trinity-large-preview',
    131072:
      'alibaba/qwen-3-32b deepseek/deepseek-v3.1-terminus moonshotai/kimi-k2 nvidia/nemotron-nano-12b-v2-vl nvidia/nemotron-nano-9b-v2 openai/gpt-oss-safeguard-20b prime-intellect/intellect-3 xai/grok-3 xai/grok-3-fast xai/grok-3-mini xai/grok-3-mini-fast',
    163840: 'deepseek/deepseek-v3 deepseek/deepseek-v3.1',
    200000:
      'anthropic/claude-3-haiku anthropic/claude-3.5-haiku anthropic/claude-3.5-sonnet anthropic/claude-3.5-sonnet-20240620 anthropic/claude-3.7-sonnet anthropic/claude-haiku-4.5 anthropic/claude-opus-4 anthropic/claude-opus-4.1 anthropic/claude-opus-4.5 openai/o1 openai/o3 openai/o3-deep-research openai/o3-mini openai/o3-pro openai/o4-mini perplexity/sonar-pro zai/glm-4.6 zai/glm-4.7 zai/glm-4.7-flash zai/glm-4.7-flashx',
    202800: 'zai/glm-5',
    204800: 'minimax/minimax-m2.1 minimax/minimax-m2.1-lightning minimax/minimax-m2.5',
    205000: 'minimax/minimax-m2',
    256000:
      'alibaba/qwen3-coder-next alibaba/qwen3-max-thinking alibaba/qwen3-vl-thinking bytedance/seed-1.6 cohere/command-a mistral/devstral-2 mistral/devstral-small-2 moonshotai/kimi-k2-0905 moonshotai/kimi-k2-turbo xai/grok-4 xai/grok-code-fast-1',
    262114:
      'alibaba/qwen3-235b-a22b-thinking moonshotai/kimi-k2-thinking moonshotai/kimi-k2-thinking-turbo moonshotai/kimi-k2.5',
    262144:
      'alibaba/qwen3-coder alibaba/qwen3-coder-30b-a3b alibaba/qwen3-max alibaba/qwen3-max-preview xiaomi/mimo-v2-flash',
    400000:
      'openai/gpt-5 openai/gpt-5-codex openai/gpt-5-mini openai/gpt-5-nano openai/gpt-5-pro openai/gpt-5.1-codex openai/gpt-5.1-codex-max openai/gpt-5.1-codex-mini openai/gpt-5.1-thinking openai/gpt-5.2 openai/gpt-5.2-codex openai/gpt-5.2-pro openai/gpt-5.3-codex',
    1000000:
      'alibaba/qwen3-coder-plus alibaba/qwen3.5-flash alibaba/qwen3.5-plus anthropic/claude-opus-4.6 anthropic/claude-sonnet-4 anthropic/claude-sonnet-4.5 anthropic/claude-sonnet-4.6 google/gemini-2.5-flash google/gemini-2.5-flash-preview-09-2025 google/gemini-3-flash google/gemini-3-pro-preview google/gemini-3.1-flash-lite-preview google/gemini-3.1-pro-preview',
    1047576: 'openai/gpt-4.1 openai/gpt-4.1-mini openai/gpt-4.1-nano',
    1048576:
      'google/gemini-2.0-flash google/gemini-2.0-flash-lite google/gemini-2.5-flash-lite google/gemini-2.5-flash-lite-preview-09-2025 google/gemini-2.5-pro',
    1050000: 'openai/gpt-5.4 openai/gpt-5.4-pro',
    2000000:
      'xai/grok-4-fast-non-reasoning xai/grok-4-fast-reasoning xai/grok-4.1-fast-non-reasoning xai/grok-4.1-fast-reasoning xai/grok-4.20-multi-agent-beta xai/grok-4.20-non-reasoning-beta xai/grok-4.20-reasoning-beta',
  },
  xai: {
    8192: 'grok-2-vision grok-2-vision-1212 grok-2-vision-latest grok-vision-beta',
    131072:
      'grok-2 grok-2-1212 grok-2-latest grok-3 grok-3-fast grok-3-fast-latest grok-3-latest grok-3-mini grok-3-mini-fast grok-3-mini-fast-latest grok-3-mini-latest grok-beta',
    256000: 'grok-4 grok-code-fast-1',
    2000000:
      'grok-4-1-fast grok-4-1-fast-non-reasoning grok-4-fast grok-4-fast-non-reasoning grok-4.20-beta-latest-non-reasoning grok-4.20-beta-latest-reasoning grok-4.20-multi-agent-beta-latest',
  },
  zai: {
    64000: 'glm-4.5v',
    128000: 'glm-4.6v',
    131072: 'glm-4.5 glm-4.5-air glm-4.5-flash',
    200000: 'glm-4.7-flash',
    204800: 'glm-4.6 glm-4.7 glm-5',
  },
};
