/** The toolbar badge: the only way a worker can tell a person something went wrong. */
export const Badge = {
  error(title: string): void {
    void chrome.action.setBadgeBackgroundColor({ color: '#c62828' }).catch(() => undefined);
    void chrome.action.setBadgeText({ text: 'ERR' }).catch(() => undefined);
    void chrome.action.setTitle({ title: `aite: ${title}` }).catch(() => undefined);
  },
  ok(): void {
    void chrome.action.setBadgeText({ text: '' }).catch(() => undefined);
    void chrome.action.setTitle({ title: 'aite: connected' }).catch(() => undefined);
  },
};
