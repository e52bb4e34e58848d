// The 20-step flow: send MALLBUCKS twice (once after going back to change the amount), with the
// checks a test would make. The same steps run on the demo app (server-side balance) and on
// bench/pages/wallet.html (the same controls, state kept in the page, plus filler rows).
import type { Instance } from './tools/Tool.js';

export const FLOW_STEPS = 20;

export async function sendFlow(page: Instance, url: string): Promise<void> {
  await page.goto(url); //                                                  1
  await page.seeText('5 MALLBUCKS'); //                                     2
  await page.clickText('Send'); //                                          3
  await page.fill('Recipient', 'qian'); //                                  4
  await page.fill('Amount', '1'); //                                        5
  await page.clickButton('Review'); //                                      6
  await page.seeText('1 MALLBUCKS', 'Review send'); //                      7
  await page.clickText('Back'); //                                          8
  await page.fill('Amount', '2'); //                                        9
  await page.clickButton('Review'); //                                      10
  await page.seeText('2 MALLBUCKS', 'Review send'); //                      11
  await page.clickText('Confirm'); //                                       12
  await page.seeText('Sent 2 MALLBUCKS to qian'); //                        13
  const balance = await page.read('#balance'); //                           14
  if (balance.trim() !== '3 MALLBUCKS') throw new Error(`flow: balance reads "${balance}", not "3 MALLBUCKS"`);
  await page.clickText('Send'); //                                          15
  await page.type('Recipient', 'qian'); //                                  16
  await page.type('Amount', '1'); //                                        17
  await page.clickButton('Review'); //                                      18
  await page.clickText('Confirm'); //                                       19
  await page.seeText('Sent 1 MALLBUCKS to qian'); //                        20
}
