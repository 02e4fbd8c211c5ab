/**
 * Sets these variables in the process's environment (what the handlers read, as Lambda
 * gives them theirs) and returns what puts each back as it was, unset or not.
 */
export function setProcessEnv(values: Readonly<Record<string, string>>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** A provider's fake that sends signed notices (the Increase fake, the Plaid fake). */
interface NoticingFake {
  readonly options: { noticeUrl?: string };
  stop(): Promise<void>;
}

/** A provider's fake as the runtime runs it: its notices' destination, and a stop that puts the settings back. */
export interface ProviderOnFake<F extends NoticingFake> {
  readonly fake: F;
  /** Sends the provider's notices to the runtime's notice route, once the gateway listens. */
  noticesTo(url: string): void;
  /** Puts the settings back as they were and stops the fake. */
  stop(): Promise<void>;
}

/**
 * Points the handlers at a started fake (`settings`: the variables its adapter is opened
 * from) and forgets what was opened before (`reset`: cached secrets), until `stop`.
 */
export function providerOnFake<F extends NoticingFake>(
  fake: F,
  settings: Readonly<Record<string, string>>,
  reset: () => void,
): ProviderOnFake<F> {
  const restore = setProcessEnv(settings);
  reset();
  return {
    fake,
    noticesTo: (url) => {
      fake.options.noticeUrl = url;
    },
    stop: async () => {
      restore();
      reset();
      await fake.stop();
    },
  };
}
