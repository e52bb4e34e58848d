/**
 * What the worker knows about the run, kept in chrome.storage.session so that a worker that
 * Chrome stopped and restarted picks up where it was: the run's tab, the tabs it switched from,
 * and the tabs that opened by themselves.
 */
export interface RunStateData {
  runId?: string;
  runTab?: number;
  /** Tabs the run switched from, oldest first (closeTab goes back along them). */
  history: number[];
  /** Tabs that opened by themselves (not by navigate), newest last. */
  opened: number[];
  /** When each tab of `opened` opened (ms since the epoch), to tell which step's input opened it. */
  openedAt?: Record<number, number>;
  /** Tabs the run already took with switchTab `new: true`. */
  taken: number[];
  /** Tabs the extension created itself. */
  created: number[];
  /** The last acts this run's workers began to handle (to tell a lost act that never left the worker). */
  acts?: number[];
  /** Whether this state goes back to the run's start (false after a reload cleared it mid-run). */
  resumed?: boolean;
  /**
   * Run tabs that closed (a popup's window.close()), newest last: a command the runner sent to one
   * before it heard of the close goes where the run went back to.
   */
  closedRunTabs?: number[];
  /** The tabs this extension's chrome.debugger is attached to (a restarted worker lets go of them). */
  debugged?: number[];
}

const KEY = 'aite-run';

export class RunState {
  #data: RunStateData = { history: [], opened: [], taken: [], created: [] };
  #loaded: Promise<void> | undefined;

  load(): Promise<void> {
    this.#loaded ??= chrome.storage.session.get(KEY).then((stored) => {
      const data = stored[KEY] as RunStateData | undefined;
      if (data) this.#data = data;
    });
    return this.#loaded;
  }

  get data(): Readonly<RunStateData> {
    return this.#data;
  }

  async update(change: (data: RunStateData) => void): Promise<void> {
    await this.load();
    change(this.#data);
    await chrome.storage.session.set({ [KEY]: this.#data });
  }

  /** A new run starts from nothing; a resumed one keeps its tabs. */
  async begin(runId: string, resumed: boolean): Promise<void> {
    await this.update((data) => {
      if (!resumed || data.runId !== runId) {
        data.runTab = undefined;
        data.history = [];
        data.opened = [];
        data.openedAt = {};
        data.taken = [];
        data.created = [];
        data.acts = [];
        data.closedRunTabs = [];
      }
      data.resumed = resumed && data.runId === runId;
      data.runId = runId;
    });
  }
}
