// MallBucks wallet: a plain script, no framework. The server owns the balance; the page only
// shows it, checks what the user typed, and posts the transfer after a review step.
'use strict';

(function () {
  const UNIT = 'MALLBUCKS';

  /** How many transfers the server accepted since the page loaded (read by tests). */
  window.__sends = 0;

  const $ = (id) => document.getElementById(id);
  const el = {
    notice: $('notice'),
    noticeText: $('notice-text'),
    noticeDismiss: $('notice-dismiss'),
    balance: $('balance'),
    balanceError: $('balance-error'),
    openSend: $('open-send'),
    openReceive: $('open-receive'),
    receivePanel: $('receive-panel'),
    sendPanel: $('send-panel'),
    form: $('send-form'),
    recipient: $('recipient'),
    recipientError: $('recipient-error'),
    amount: $('amount'),
    amountError: $('amount-error'),
    cancel: $('cancel-send'),
    dialog: $('review-dialog'),
    reviewAmount: $('review-amount'),
    reviewTo: $('review-to'),
    reviewError: $('review-error'),
    back: $('review-back'),
    confirm: $('confirm'),
    activityEmpty: $('activity-empty'),
    activityList: $('activity-list'),
  };

  const state = {
    balance: null, // number once loaded
    pending: null, // { to, amount } while the review dialog is open
    sending: false,
  };

  function formatAmount(n) {
    const text = Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
    return text + ' ' + UNIT;
  }

  async function api(path, init) {
    const response = await fetch(path, {
      ...init,
      headers: { accept: 'application/json', ...(init && init.body ? { 'content-type': 'application/json' } : {}) },
    });
    let body = null;
    try {
      body = await response.json();
    } catch {
      // an empty or non-JSON body is reported below by status
    }
    if (!response.ok) {
      throw new Error((body && body.error) || 'The server answered ' + response.status + '.');
    }
    return body;
  }

  // ---- balance and activity --------------------------------------------------------------

  function renderBalance() {
    el.balance.textContent = formatAmount(state.balance);
    el.balance.removeAttribute('aria-busy');
  }

  function renderActivity(items) {
    el.activityList.replaceChildren(
      ...items.map((item) => {
        const li = document.createElement('li');
        li.className = 'activity-item';
        const badge = document.createElement('span');
        badge.className = 'avatar avatar-small';
        badge.setAttribute('aria-hidden', 'true');
        badge.textContent = item.to.slice(0, 1).toUpperCase();
        const who = document.createElement('div');
        who.className = 'activity-who';
        const name = document.createElement('span');
        name.className = 'activity-name';
        name.textContent = 'To ' + item.to;
        const when = document.createElement('time');
        when.className = 'activity-time';
        when.dateTime = item.at;
        when.textContent = new Date(item.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
        who.append(name, when);
        const amount = document.createElement('span');
        amount.className = 'activity-amount';
        amount.textContent = '\u2212' + formatAmount(item.amount);
        li.append(badge, who, amount);
        return li;
      }),
    );
    el.activityEmpty.hidden = items.length > 0;
  }

  async function load() {
    try {
      const [balance, activity] = await Promise.all([api('api/balance'), api('api/activity')]);
      state.balance = balance.balance;
      renderBalance();
      renderActivity(activity.items);
      el.openSend.disabled = false;
    } catch (error) {
      el.balance.textContent = '\u2014';
      el.balanceError.textContent = 'Could not load your balance. Reload the page to try again.';
      el.balanceError.hidden = false;
      console.error(error);
    }
  }

  // ---- the send form ---------------------------------------------------------------------

  function setPanel(button, panel, open) {
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
  }

  function showFieldError(input, errorEl, message) {
    errorEl.textContent = message;
    errorEl.hidden = !message;
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  function clearErrors() {
    showFieldError(el.recipient, el.recipientError, '');
    showFieldError(el.amount, el.amountError, '');
  }

  function openSendForm() {
    hideNotice();
    setPanel(el.openReceive, el.receivePanel, false);
    setPanel(el.openSend, el.sendPanel, true);
    el.recipient.focus();
  }

  function closeSendForm() {
    el.form.reset();
    clearErrors();
    setPanel(el.openSend, el.sendPanel, false);
  }

  /** Checks the form; answers `{ to, amount }` or null after showing the problems inline. */
  function validate() {
    const to = el.recipient.value.trim();
    const raw = el.amount.value.trim().replace(',', '.');
    let ok = true;

    if (!to) {
      showFieldError(el.recipient, el.recipientError, 'Enter who to send to.');
      ok = false;
    } else {
      showFieldError(el.recipient, el.recipientError, '');
    }

    const amount = Number(raw);
    let amountMessage = '';
    if (!raw) amountMessage = 'Enter an amount, like 1.';
    else if (!/^(\d+(\.\d*)?|\.\d+)$/.test(raw) || !Number.isFinite(amount)) amountMessage = 'The amount must be a number.';
    else if (amount <= 0) amountMessage = 'The amount must be more than 0.';
    else if (Math.round(amount * 100) !== amount * 100) amountMessage = 'Use at most two decimal places.';
    else if (amount > state.balance) amountMessage = 'You can send at most ' + formatAmount(state.balance) + '.';
    showFieldError(el.amount, el.amountError, amountMessage);
    if (amountMessage) ok = false;

    if (!ok) {
      (to ? el.amount : el.recipient).focus();
      return null;
    }
    return { to, amount };
  }

  function review() {
    const transfer = validate();
    if (!transfer) return;
    state.pending = transfer;
    el.reviewAmount.textContent = formatAmount(transfer.amount);
    el.reviewTo.textContent = transfer.to;
    el.reviewError.hidden = true;
    el.dialog.showModal();
  }

  async function confirm() {
    if (state.sending || !state.pending) return;
    const transfer = state.pending;
    state.sending = true;
    el.confirm.disabled = true;
    el.back.disabled = true;
    el.confirm.textContent = 'Sending\u2026';
    el.reviewError.hidden = true;
    try {
      const result = await api('api/send', { method: 'POST', body: JSON.stringify(transfer) });
      window.__sends += 1;
      state.balance = result.balance;
      renderBalance();
      el.dialog.close();
      closeSendForm();
      showNotice('Sent ' + formatAmount(transfer.amount) + ' to ' + transfer.to);
      api('api/activity').then((activity) => renderActivity(activity.items), console.error);
    } catch (error) {
      el.reviewError.textContent = error.message;
      el.reviewError.hidden = false;
    } finally {
      state.sending = false;
      el.confirm.disabled = false;
      el.back.disabled = false;
      el.confirm.textContent = 'Confirm';
    }
  }

  // ---- the notice ------------------------------------------------------------------------

  function showNotice(text) {
    el.noticeText.textContent = text;
    el.notice.hidden = false;
  }

  function hideNotice() {
    el.notice.hidden = true;
  }

  // ---- wiring ----------------------------------------------------------------------------

  el.openSend.addEventListener('click', () => {
    if (el.sendPanel.hidden) openSendForm();
    else el.recipient.focus();
  });
  el.openReceive.addEventListener('click', () => {
    setPanel(el.openReceive, el.receivePanel, el.receivePanel.hidden);
  });
  el.cancel.addEventListener('click', closeSendForm);
  el.form.addEventListener('submit', (event) => {
    event.preventDefault();
    review();
  });
  for (const [input, errorEl] of [[el.recipient, el.recipientError], [el.amount, el.amountError]]) {
    input.addEventListener('input', () => showFieldError(input, errorEl, ''));
  }
  el.back.addEventListener('click', () => el.dialog.close());
  el.dialog.addEventListener('cancel', (event) => {
    if (state.sending) event.preventDefault();
  });
  el.dialog.addEventListener('close', () => {
    state.pending = null;
  });
  el.confirm.addEventListener('click', confirm);
  el.noticeDismiss.addEventListener('click', hideNotice);

  // `?state=form|review|invalid` opens the app in that state; only for taking pictures of it.
  const shown = new URLSearchParams(location.search).get('state');

  load().then(() => {
    if (!shown || state.balance === null) return;
    openSendForm();
    if (shown === 'review') {
      el.recipient.value = 'qian';
      el.amount.value = '1';
      review();
    } else if (shown === 'invalid') {
      el.recipient.value = 'qian';
      el.amount.value = '9';
      review();
    }
  });
})();
