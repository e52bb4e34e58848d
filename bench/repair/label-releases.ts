// Proposes labels for the release pairs: an element of the old page is paired with one of the new
// page when they agree on a key that is unique on both pages (tag family + visible text; else
// `name`, placeholder, id or href of a control/link). The repair score is not used, so labels do
// not favour it. The output is reviewed by hand ($TMPDIR/aite-label-review.txt lists every
// unpaired element) and hand labels are added with how: "hand". Page pairs already in the labels
// file keep their labels as they are (they were reviewed; the weights were fitted on them); only
// new pairs are labelled, and a pair of a later batch's packages (releases.ts `BATCHES`) is held out whole.
//   node label.mjs > labels.new.json && mv labels.new.json test/fixtures/drift/real/labels.json
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import puppeteer from 'puppeteer-core';
import type { Item } from './harness.js';
import { LABELS_FILE, NEWEST_BATCH, PAIRS, batchOf, fetchReleases, type Label } from './releases.js';
import { startServer } from './server.js';

type BenchGlobal = typeof import('./harness.js');
declare const aiteBench: BenchGlobal;

const family = (tag: string): string => (/^h[1-6]$/.test(tag) ? 'h' : /^(a|button)$/.test(tag) ? 'action' : tag);

function keys(i: Item): string[] {
  const k: string[] = [];
  const t = i.text.toLowerCase();
  if (t.length >= 2) k.push(`t:${family(i.tag)}:${t}`);
  if (i.nameAttr) k.push(`n:${i.tag}:${i.nameAttr}`);
  if (i.placeholder) k.push(`p:${i.tag}:${i.placeholder.toLowerCase()}`);
  if (i.id) k.push(`i:${i.tag}:${i.id}`);
  if (i.href && i.href !== '#' && !i.href.startsWith('javascript')) k.push(`h:${i.href.replace(/^(\.\.\/)+/, '')}|${t}`);
  return k;
}

/** Pairs the unique-key rule cannot make (the text changed), labelled by reading both pages. */
const HAND: [string, string, string, string, string, string | null, string][] = [
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'login.html', 'dist/login.html', '/html[1]/body[1]/div[1]/div[1]/div[2]/form[1]/div[3]/div[1]/label[1]/input[1]', '/html[1]/body[1]/div[1]/div[1]/main[1]/div[1]/div[1]/div[1]/div[1]/div[2]/form[1]/div[3]/input[1]', 'checkbox "Remember Password"'],
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'login.html', 'dist/login.html', '/html[1]/body[1]/div[1]/div[1]/div[2]/div[1]/a[1]', '/html[1]/body[1]/div[1]/div[1]/main[1]/div[1]/div[1]/div[1]/div[1]/div[3]/div[1]/a[1]', 'a "Register an Account" -> "Need an account? Sign up!"'],
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'register.html', 'dist/register.html', '/html[1]/body[1]/div[1]/div[1]/div[2]/form[1]/div[1]/div[1]/div[1]/div[1]/input[1]', '/html[1]/body[1]/div[1]/div[1]/main[1]/div[1]/div[1]/div[1]/div[1]/div[2]/form[1]/div[1]/div[1]/div[1]/input[1]', 'input "First name"'],
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'register.html', 'dist/register.html', '/html[1]/body[1]/div[1]/div[1]/div[2]/form[1]/div[1]/div[1]/div[2]/div[1]/input[1]', '/html[1]/body[1]/div[1]/div[1]/main[1]/div[1]/div[1]/div[1]/div[1]/div[2]/form[1]/div[1]/div[2]/div[1]/input[1]', 'input "Last name"'],
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'register.html', 'dist/register.html', '/html[1]/body[1]/div[1]/div[1]/div[2]/form[1]/a[1]', '/html[1]/body[1]/div[1]/div[1]/main[1]/div[1]/div[1]/div[1]/div[1]/div[2]/form[1]/div[4]/div[1]/a[1]', 'a "Register" -> "Create Account"'],
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'register.html', 'dist/register.html', '/html[1]/body[1]/div[1]/div[1]/div[2]/div[1]/a[1]', '/html[1]/body[1]/div[1]/div[1]/main[1]/div[1]/div[1]/div[1]/div[1]/div[3]/div[1]/a[1]', 'a "Login Page" -> "Have an account? Go to login"'],
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'register.html', 'dist/register.html', '/html[1]/body[1]/div[1]/div[1]/div[2]/div[1]/a[2]', null, 'a "Forgot Password?" (gone from the register page)'],
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'forgot-password.html', 'dist/password.html', '/html[1]/body[1]/div[1]/div[1]/div[2]/div[2]/a[1]', '/html[1]/body[1]/div[1]/div[1]/main[1]/div[1]/div[1]/div[1]/div[1]/div[3]/div[1]/a[1]', 'a "Register an Account" -> "Need an account? Sign up!"'],
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'forgot-password.html', 'dist/password.html', '/html[1]/body[1]/div[1]/div[1]/div[2]/div[2]/a[2]', '/html[1]/body[1]/div[1]/div[1]/main[1]/div[1]/div[1]/div[1]/div[1]/div[2]/form[1]/div[2]/a[1]', 'a "Login Page" -> "Return to login"'],
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'index.html', 'dist/index.html', '/html[1]/body[1]/nav[1]/ul[1]/li[1]/a[1]', null, 'a alerts "9+" (gone: no alerts menu in 7)'],
  ['startbootstrap-sb-admin@5.0.2', 'startbootstrap-sb-admin@7.0.7', 'tables.html', 'dist/tables.html', '/html[1]/body[1]/nav[1]/ul[1]/li[2]/a[1]', null, 'a messages "7" (gone: no messages menu in 7)'],
  ['admin-lte@2.4.18', 'admin-lte@3.2.0', 'pages/examples/login.html', 'pages/examples/login.html', '/html[1]/body[1]/div[1]/div[2]/form[1]/div[3]/div[1]/div[1]/label[1]/div[1]/input[1]', '/html[1]/body[1]/div[1]/div[2]/div[1]/form[1]/div[3]/div[1]/div[1]/input[1]', 'checkbox "Remember Me"'],
  ['admin-lte@2.4.18', 'admin-lte@3.2.0', 'pages/examples/register.html', 'pages/examples/register.html', '/html[1]/body[1]/div[1]/div[2]/form[1]/div[5]/div[1]/div[1]/label[1]/div[1]/input[1]', '/html[1]/body[1]/div[1]/div[2]/div[1]/form[1]/div[5]/div[1]/div[1]/input[1]', 'checkbox "I agree to the terms"'],
  // Batch 2: Material Dashboard 2 → 3 (Bootstrap 4 → 5; user.html became a profile page without the edit form).
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/dashboard.html', 'pages/dashboard.html', '/html/body/div/div[1]/div[2]/ul/li[2]/a', '/html/body/aside/div[2]/ul/li[8]/a', 'a "Person User Profile" -> "person Profile"'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/dashboard.html', 'pages/dashboard.html', '/html/body/div/div[1]/div[2]/ul/li[3]/a', '/html/body/aside/div[2]/ul/li[2]/a', 'a "Content_paste Table List" -> "table_view Tables"'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/dashboard.html', 'pages/dashboard.html', '/html/body/div/div[1]/div[2]/ul/li[4]/a', null, 'a "Library_books Typography" (gone from the sidebar in 3)'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/dashboard.html', 'pages/dashboard.html', '/html/body/div/div[1]/div[2]/ul/li[6]/a', null, 'a "Location_ons Maps" (gone from the sidebar in 3)'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/dashboard.html', 'pages/dashboard.html', '/html/body/div/div[1]/div[1]/a', '/html/body/aside/div[1]/a', 'a brand "CREATIVE TIM" -> "Material Dashboard 2"'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/dashboard.html', 'pages/dashboard.html', '/html/body/div/div[2]/nav/div/div[2]/form/span/div/input', '/html/body/main/nav/div/div/div/div/input', 'input "Search..." (placeholder dropped, a floating label instead)'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/dashboard.html', 'pages/dashboard.html', '/html/body/div/div[2]/nav/div/div[2]/form/span/div/button', null, 'button "SEARCH" (gone)'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/dashboard.html', 'pages/dashboard.html', '/html/body/div/div[2]/footer/div/nav/ul/li[4]/a', '/html/body/main/div/footer/div/div/div[2]/ul/li[4]/a', 'a "LICENSES" -> "License"'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/dashboard.html', 'pages/dashboard.html', '/html/body/div/div[2]/div/div/div[3]/div[2]/div/div[1]/h4', null, 'h4 "Employees Stats" (gone)'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/dashboard.html', 'pages/dashboard.html', '/html/body/div/div[2]/div/div/div[1]/div[1]/div/div[2]/div/a', null, 'a "Get More Space..." (gone)'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/user.html', 'pages/profile.html', '/html/body/div/div[1]/div[2]/ul/li[2]/a', '/html/body/aside/div[2]/ul/li[8]/a', 'a "Person User Profile" -> "person Profile"'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/user.html', 'pages/profile.html', '/html/body/div/div[1]/div[2]/ul/li[3]/a', '/html/body/aside/div[2]/ul/li[2]/a', 'a "Content_paste Table List" -> "table_view Tables"'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/user.html', 'pages/profile.html', '/html/body/div/div[2]/div/div/div/div[1]/div/div[2]/form/div[1]/div[2]/div/input', null, 'input "Email address" (the edit form is gone)'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/user.html', 'pages/profile.html', '/html/body/div/div[2]/div/div/div/div[1]/div/div[2]/form/div[2]/div[1]/div/input', null, 'input "Last Name" (the edit form is gone)'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/user.html', 'pages/profile.html', '/html/body/div/div[2]/div/div/div/div[1]/div/div[2]/form/button', null, 'button "UPDATE PROFILE" (gone)'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/user.html', 'pages/profile.html', '/html/body/div/div[2]/div/div/div/div[2]/div/div[2]/a', null, 'a "FOLLOW" (gone)'],
  ['material-dashboard@2.1.0', 'material-dashboard@3.1.0', 'examples/user.html', 'pages/profile.html', '/html/body/div/div[2]/div/div/div/div[1]/div/div[1]/h4', null, 'h4 "Edit Profile" (gone)'],
  // Batch 3: the texts that changed, the icon links (no text to pair by), the twins and the gone, read from both releases' pages.
  ['startbootstrap-agency@5.2.2', 'startbootstrap-agency@7.0.12', 'index.html', 'dist/index.html', '/html/body/nav/div/a', '/html/body/nav/div/a', 'a brand "Start Bootstrap" -> logo image'],
  ['startbootstrap-agency@5.2.2', 'startbootstrap-agency@7.0.12', 'index.html', 'dist/index.html', '/html/body/section[4]/div/div[2]/div[2]/div/ul/li[1]/a', '/html/body/section[4]/div/div[2]/div[3]/div/a[1]', "a Larry Parker's Twitter icon (the team reordered)"],
  ['startbootstrap-agency@5.2.2', 'startbootstrap-agency@7.0.12', 'index.html', 'dist/index.html', '/html/body/section[4]/div/div[2]/div[3]/div/ul/li[2]/a', '/html/body/section[4]/div/div[2]/div[2]/div/a[2]', "a Diana Pertersen's Facebook icon -> Diana Petersen's (the team reordered)"],
  ['startbootstrap-agency@5.2.2', 'startbootstrap-agency@7.0.12', 'index.html', 'dist/index.html', '/html/body/section[4]/div/div[2]/div[1]/div/ul/li[1]/a', null, "a Kay Garland's Twitter icon (gone: another person in her place)"],
  ['startbootstrap-agency@5.2.2', 'startbootstrap-agency@7.0.12', 'index.html', 'dist/index.html', '/html/body/section[5]/div/div/div[1]/a', null, 'a client logo Envato (gone: other clients)'],
  ['startbootstrap-agency@5.2.2', 'startbootstrap-agency@7.0.12', 'index.html', 'dist/index.html', '/html/body/footer/div/div/div[2]/ul/li[1]/a', '/html/body/footer/div/div/div[2]/a[1]', 'a footer Twitter icon'],
  ['startbootstrap-grayscale@5.0.9', 'startbootstrap-grayscale@7.0.6', 'index.html', 'dist/index.html', '/html/body/section[3]/div/div/div/form/button', '/html/body/section[3]/div/div/div/form/div[1]/div[2]/button', 'button "SUBSCRIBE" -> "NOTIFY ME!"'],
  ['startbootstrap-grayscale@5.0.9', 'startbootstrap-grayscale@7.0.6', 'index.html', 'dist/index.html', '/html/body/section[1]/div/div/div/p/a', '/html/body/section[1]/div/div/div/p/a', 'a "the preview page" -> "the preview page." (new href)'],
  ['startbootstrap-grayscale@5.0.9', 'startbootstrap-grayscale@7.0.6', 'index.html', 'dist/index.html', '/html/body/section[4]/div/div[2]/a[1]', '/html/body/section[4]/div/div[2]/a[1]', 'a Twitter icon'],
  ['startbootstrap-freelancer@5.1.3', 'startbootstrap-freelancer@7.0.7', 'index.html', 'dist/index.html', '/html/body/footer/div/div/div[2]/a[2]', '/html/body/footer/div/div/div[2]/a[2]', 'a footer Twitter icon'],
  ['startbootstrap-landing-page@5.1.0', 'startbootstrap-landing-page@6.0.6', 'dist/index.html', 'dist/index.html', '/html/body/nav/div/a[2]', null, 'a "Sign In" (gone: "Sign Up" in its place)'],
  ['startbootstrap-landing-page@5.1.0', 'startbootstrap-landing-page@6.0.6', 'dist/index.html', 'dist/index.html', '/html/body/header/div[2]/div/div[2]/form/div/div[1]/input', '/html/body/header/div/div/div/div/form/div[1]/div[1]/input', 'input "Enter your email..." -> "Email Address" (header)'],
  ['startbootstrap-landing-page@5.1.0', 'startbootstrap-landing-page@6.0.6', 'dist/index.html', 'dist/index.html', '/html/body/header/div[2]/div/div[2]/form/div/div[2]/button', '/html/body/header/div/div/div/div/form/div[1]/div[2]/button', 'button "Sign up!" -> "Submit" (header)'],
  ['startbootstrap-landing-page@5.1.0', 'startbootstrap-landing-page@6.0.6', 'dist/index.html', 'dist/index.html', '/html/body/section[4]/div[2]/div/div[2]/form/div/div[1]/input', '/html/body/section[4]/div/div/div/form/div[1]/div[1]/input', 'input "Enter your email..." -> "Email Address" (call to action)'],
  ['startbootstrap-landing-page@5.1.0', 'startbootstrap-landing-page@6.0.6', 'dist/index.html', 'dist/index.html', '/html/body/section[4]/div[2]/div/div[2]/form/div/div[2]/button', '/html/body/section[4]/div/div/div/form/div[1]/div[2]/button', 'button "Sign up!" -> "Submit" (call to action)'],
  ['startbootstrap-simple-sidebar@5.1.2', 'startbootstrap-simple-sidebar@6.0.6', 'index.html', 'dist/index.html', '/html/body/div/div[2]/nav/div/ul/li[1]/a', '/html/body/div/div[2]/nav/div/div/ul/li[1]/a', 'a "Home (current)" -> "Home"'],
  ['startbootstrap-clean-blog@5.0.10', 'startbootstrap-clean-blog@6.0.9', 'post.html', 'dist/post.html', '/html/body/article/div/div/div/a', '/html/body/article/div/div/div/a', 'a image link in the post'],
  ['startbootstrap-clean-blog@5.0.10', 'startbootstrap-clean-blog@6.0.9', 'post.html', 'dist/post.html', '/html/body/header/div[2]/div/div/div/span/a', '/html/body/header/div/div/div/div/span/a', "a \"Start Bootstrap\" (the post's author)"],
  ['tabler-ui@0.0.32', 'tabler-ui@0.0.34', 'dist/index.html', 'dist/index.html', '/html/body/div/div[1]/div[1]/div/div/div/div[1]/a', '/html/body/div/div[1]/div[1]/div/div/div/div[1]/a', 'a "Source code" (header; the footer has its twin)'],
  ['tabler-ui@0.0.32', 'tabler-ui@0.0.34', 'dist/index.html', 'dist/index.html', '/html/body/div/footer/div/div/div[1]/div/div[2]/a', '/html/body/div/footer/div/div/div[1]/div/div[2]/a', 'a "Source code" (footer)'],
  ['tabler-ui@0.0.32', 'tabler-ui@0.0.34', 'dist/index.html', 'dist/index.html', '/html/body/div/div[1]/div[3]/div/div[4]/div[6]/div/div[2]/table/tbody/tr[1]/td[8]/a', '/html/body/div/div[1]/div[3]/div[1]/div[4]/div[6]/div/div[2]/div/table/tbody/tr[1]/td[8]/a', 'a "Manage" in the first invoice row'],
  ['tabler-ui@0.0.32', 'tabler-ui@0.0.34', 'dist/index.html', 'dist/index.html', '/html/body/div/div[1]/div[3]/div/div[4]/div[6]/div/div[2]/table/tbody/tr[1]/td[2]/a', '/html/body/div/div[1]/div[3]/div[1]/div[4]/div[6]/div/div[2]/div/table/tbody/tr[1]/td[2]/a', 'a "Design Works" in the first invoice row (the new table repeats it in row 9)'],
  ['tabler-ui@0.0.32', 'tabler-ui@0.0.34', 'dist/login.html', 'dist/login.html', '/html/body/div/div/div/div/div/form/div/div[4]/label/input', '/html/body/div/div/div/div/div/form/div/div[4]/label/input', 'checkbox "Remember me"'],
  ['material-kit@2.0.2', 'material-kit@2.0.4', 'index.html', 'index.html', '/html/body/div[2]/div[11]/a', null, 'a "VIEW SIGNUP PAGE" (gone: the signup page became a login page)'],
  ['material-kit@2.0.2', 'material-kit@2.0.4', 'index.html', 'index.html', '/html/body/footer/div/nav/ul/li[1]/a', '/html/body/footer/div/nav/ul/li[1]/a', 'a "CREATIVE TIM" (footer menu; the copyright line has its twin)'],
  ['material-kit@2.0.2', 'material-kit@2.0.4', 'index.html', 'index.html', '/html/body/footer/div/div/a', '/html/body/footer/div/div/a', 'a "Creative Tim" (copyright line)'],
  // Batch 4: the texts that changed, the icon links, the twins and the gone, read from both releases' pages.
  ['startbootstrap-new-age@5.0.9', 'startbootstrap-new-age@6.0.7', 'index.html', 'dist/index.html', '/html/body/nav/div/div/ul/li[3]/a', null, 'a "CONTACT" (gone: no contact section in 6)'],
  ['startbootstrap-new-age@5.0.9', 'startbootstrap-new-age@6.0.7', 'index.html', 'dist/index.html', '/html/body/header/div/div/div[1]/div/h1', '/html/body/header/div/div/div[1]/div/h1', 'h1 header "New Age is an app landing page..." -> "Showcase your app beautifully."'],
  ['startbootstrap-new-age@5.0.9', 'startbootstrap-new-age@6.0.7', 'index.html', 'dist/index.html', '/html/body/header/div/div/div[1]/div/a', null, 'a "START NOW FOR FREE!" (gone: the header shows store badges instead)'],
  ['startbootstrap-new-age@5.0.9', 'startbootstrap-new-age@6.0.7', 'index.html', 'dist/index.html', '/html/body/section[1]/div/div/div/h2', '/html/body/section[4]/div/h2', 'h2 of the #download section "Discover what all the buzz is about!" -> "Get the app now!" (moved to the end)'],
  ['startbootstrap-new-age@5.0.9', 'startbootstrap-new-age@6.0.7', 'index.html', 'dist/index.html', '/html/body/section[1]/div/div/div/div/a[1]', '/html/body/section[4]/div/div/a[1]', 'a Google Play badge of the #download section (the header has its twin)'],
  ['startbootstrap-new-age@5.0.9', 'startbootstrap-new-age@6.0.7', 'index.html', 'dist/index.html', '/html/body/section[1]/div/div/div/div/a[2]', '/html/body/section[4]/div/div/a[2]', 'a App Store badge of the #download section (the header has its twin)'],
  ['startbootstrap-new-age@5.0.9', 'startbootstrap-new-age@6.0.7', 'index.html', 'dist/index.html', '/html/body/section[2]/div/div[1]/h2', null, 'h2 "Unlimited Features, Unlimited Fun" (gone)'],
  ['startbootstrap-new-age@5.0.9', 'startbootstrap-new-age@6.0.7', 'index.html', 'dist/index.html', '/html/body/section[3]/div[1]/div/a', '/html/body/section[3]/div/div/a', 'a "LET\'S GET STARTED!" -> "Download for free" (the call to action under "Stop waiting. Start building.")'],
  ['startbootstrap-new-age@5.0.9', 'startbootstrap-new-age@6.0.7', 'index.html', 'dist/index.html', '/html/body/section[4]/div/h2', null, 'h2 "We new friends!" (gone: no contact section)'],
  ['startbootstrap-new-age@5.0.9', 'startbootstrap-new-age@6.0.7', 'index.html', 'dist/index.html', '/html/body/section[4]/div/ul/li[1]/a', null, 'a Twitter icon (gone: no contact section)'],
  ['startbootstrap-stylish-portfolio@5.0.9', 'startbootstrap-stylish-portfolio@6.0.6', 'index.html', 'dist/index.html', '/html/body/a[1]', '/html/body/a[1]', 'a menu toggle icon'],
  ['startbootstrap-stylish-portfolio@5.0.9', 'startbootstrap-stylish-portfolio@6.0.6', 'index.html', 'dist/index.html', '/html/body/footer/div/ul/li[1]/a', '/html/body/footer/div/ul/li[1]/a', 'a footer Facebook icon'],
  ['startbootstrap-stylish-portfolio@5.0.9', 'startbootstrap-stylish-portfolio@6.0.6', 'index.html', 'dist/index.html', '/html/body/footer/div/ul/li[2]/a', '/html/body/footer/div/ul/li[2]/a', 'a footer Twitter icon'],
  ['startbootstrap-stylish-portfolio@5.0.9', 'startbootstrap-stylish-portfolio@6.0.6', 'index.html', 'dist/index.html', '/html/body/footer/div/ul/li[3]/a', '/html/body/footer/div/ul/li[3]/a', 'a footer GitHub icon'],
  ['startbootstrap-coming-soon@5.1.0', 'startbootstrap-coming-soon@6.0.7', 'dist/index.html', 'dist/index.html', '/html/body/div[2]/div[2]/div/div/div/h1', '/html/body/div[1]/div/div/h1', 'h1 "Coming Soon!" -> "Our Website is Coming Soon"'],
  ['startbootstrap-coming-soon@5.1.0', 'startbootstrap-coming-soon@6.0.7', 'dist/index.html', 'dist/index.html', '/html/body/div[2]/div[2]/div/div/div/div/input', '/html/body/div[1]/div/div/form/div[1]/div[1]/input', 'input "Enter email..." -> "Enter email address..."'],
  ['startbootstrap-coming-soon@5.1.0', 'startbootstrap-coming-soon@6.0.7', 'dist/index.html', 'dist/index.html', '/html/body/div[3]/ul/li[1]/a', '/html/body/div[2]/div/a[1]', 'a Twitter icon'],
  ['startbootstrap-coming-soon@5.1.0', 'startbootstrap-coming-soon@6.0.7', 'dist/index.html', 'dist/index.html', '/html/body/div[3]/ul/li[2]/a', '/html/body/div[2]/div/a[2]', 'a Facebook icon'],
  ['startbootstrap-coming-soon@5.1.0', 'startbootstrap-coming-soon@6.0.7', 'dist/index.html', 'dist/index.html', '/html/body/div[3]/ul/li[3]/a', '/html/body/div[2]/div/a[3]', 'a Instagram icon'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'index.html', 'dist/index.html', '/html/body/nav/div/div/ul/li[2]/a', null, 'a "Services" (gone: no services page in 5)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'index.html', 'dist/index.html', '/html/body/nav/div/div/ul/li[6]/a', null, 'a "Other Pages" (gone: its pages are in the menu now)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'index.html', 'dist/index.html', '/html/body/header/div/a[1]', null, 'a "Previous" (gone: no carousel)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'index.html', 'dist/index.html', '/html/body/div/h1', '/html/body/main/header/div/div/div[1]/div/h1', 'h1 "Welcome to Modern Business" -> "A Bootstrap 5 template for modern businesses" (the page\'s one h1)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'index.html', 'dist/index.html', '/html/body/div/div[1]/div[1]/div/div[2]/a', null, 'a "Learn More" of the first card (gone: the header\'s "Learn More" is another link)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'index.html', 'dist/index.html', '/html/body/div/div[2]/div[1]/div/div/h4/a', null, 'a "Project One" (gone: no portfolio on the home page)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'index.html', 'dist/index.html', '/html/body/div/div[4]/div[2]/a', null, 'a "Call to Action" (gone)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'about.html', 'dist/about.html', '/html/body/div/h1', '/html/body/main/header/div/div/div/div/h1', 'h1 "About Subheading" -> "Our mission is to make..." (the page\'s one h1)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'about.html', 'dist/about.html', '/html/body/div/div[2]/div[1]/div/div[2]/a', null, 'a "name@example.com" of the first team member (gone: no addresses)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'contact.html', 'dist/contact.html', '/html/body/div/div[2]/div/form/button', '/html/body/main/section/div/div[1]/div[2]/div/form/div[7]/button', 'button "Send Message" -> "Submit" (the contact form\'s)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'contact.html', 'dist/contact.html', '/html/body/div/div[1]/div[2]/p[3]/a', null, 'a "name@example.com" (gone: no contact details)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'contact.html', 'dist/contact.html', '/html/body/div/h1', '/html/body/main/section/div/div[1]/div[1]/h1', 'h1 "Contact Subheading" -> "Get in touch"'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'faq.html', 'dist/faq.html', '/html/body/div/h1', '/html/body/main/section/div/div[1]/h1', 'h1 "FAQ Subheading" -> "Frequently Asked Questions"'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'faq.html', 'dist/faq.html', '/html/body/div/div/div[1]/div[1]/h5/a', '/html/body/main/section/div/div[2]/div[1]/div[1]/div[1]/h3/button', 'a "Collapsible Group Item #1" -> button "Accordion Item #1" of the first accordion (the second has its twin)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'pricing.html', 'dist/pricing.html', '/html/body/div/h1', '/html/body/main/section/div/div[1]/h1', 'h1 "Pricing Subheading" -> "Pay as you grow"'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'pricing.html', 'dist/pricing.html', '/html/body/div/div/div[1]/div/ul/li[4]/a', '/html/body/main/section/div/div[2]/div[1]/div/div/div[3]/a', 'a "Sign Up!" of the first plan -> "Choose plan" of the first plan (Basic -> Free)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'pricing.html', 'dist/pricing.html', '/html/body/div/div/div[3]/div/ul/li[4]/a', '/html/body/main/section/div/div[2]/div[3]/div/div/div[3]/a', 'a "Sign Up!" of the third plan -> "Choose plan" of the third plan (Ultra -> Enterprise)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'blog-post.html', 'dist/blog-post.html', '/html/body/div/h1', '/html/body/main/section/div/div/div[2]/article/header/h1', 'h1 "Post Title by Start Bootstrap" -> "Welcome to Blog Post!" (the post\'s title)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'blog-post.html', 'dist/blog-post.html', '/html/body/div/div/div[1]/div[1]/div/form/div/textarea', '/html/body/main/section/div/div/div[2]/section/div/div/form/textarea', 'textarea of the comment form'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'blog-post.html', 'dist/blog-post.html', '/html/body/div/div/div[1]/div[1]/div/form/button', null, 'button "Submit" of the comment form (gone)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'blog-post.html', 'dist/blog-post.html', '/html/body/div/div/div[2]/div[1]/div/div/input', null, 'input "Search for..." (gone: no sidebar)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'blog-home-1.html', 'dist/blog-home.html', '/html/body/div/h1', '/html/body/main/section[1]/div/h1', 'h1 "Blog Home One Subheading" -> "Company Blog"'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'blog-home-1.html', 'dist/blog-home.html', '/html/body/div/div/div[1]/ul/li[1]/a', null, 'a "← Older" (gone: no pager)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'blog-home-1.html', 'dist/blog-home.html', '/html/body/div/div/div[2]/div[1]/div/div/span/button', null, 'button "Go!" (gone: no search)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'portfolio-item.html', 'dist/portfolio-item.html', '/html/body/div/h1', '/html/body/main/section/div/div[1]/div/div/h1', 'h1 "Portfolio Item Subheading" -> "Project Title"'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'portfolio-item.html', 'dist/portfolio-item.html', '/html/body/div/h3', null, 'h3 "Related Projects" (gone)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'portfolio-3-col.html', 'dist/portfolio-overview.html', '/html/body/div/h1', '/html/body/main/section[1]/div/div[1]/h1', 'h1 "Portfolio 3 Subheading" -> "Our Work"'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'portfolio-3-col.html', 'dist/portfolio-overview.html', '/html/body/div/div/div[1]/div/div/h4/a', '/html/body/main/section[1]/div/div[2]/div[1]/div/a', 'a "Project One" -> "Project name" of the first project (all four are "Project name" now)'],
  ['startbootstrap-modern-business@4.2.3', 'startbootstrap-modern-business@5.0.7', 'portfolio-3-col.html', 'dist/portfolio-overview.html', '/html/body/div/ul/li[1]/a', null, 'a "« Previous" (gone: no pager)'],
];

/** At most this many auto labels per page pair, so the menus every page repeats do not dominate. */
const PER_PAGE = 12;

function hash(s: string): number {
  let x = 2166136261;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 16777619);
  return x >>> 0;
}

async function main(): Promise<void> {
  const rel = await fetchReleases(join(tmpdir(), 'aite-releases'));
  if (!rel) throw new Error('no releases');
  const existing: Label[] = existsSync(LABELS_FILE) ? (JSON.parse(readFileSync(LABELS_FILE, 'utf8')) as Label[]) : [];
  const labelled = new Set(existing.map((l) => l.pair));
  const pairName = (oldPkg: string, newPkg: string, oldPage: string): string => `${oldPkg} -> ${newPkg} :: ${oldPage}`;
  const splitOf = (newPkg: string, pair: string): Pick<Label, 'split' | 'batch'> => {
    const batch = batchOf(newPkg);
    return batch ? { split: 'test', batch } : { split: hash(pair) % 2 === 0 ? 'train' : 'test' };
  };
  const server = await startServer({ real: rel.dir });
  const script = (await build({ entryPoints: ['bench/repair/harness.ts'], bundle: true, format: 'iife', globalName: 'aiteBench', write: false })).outputFiles[0]!.text;
  const userDataDir = mkdtempSync(join(tmpdir(), 'aite-label-'));
  const browser = await puppeteer.launch({
    executablePath: process.env.AITE_CHROME ?? '/usr/bin/chromium',
    headless: true,
    pipe: true,
    userDataDir,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    defaultViewport: { width: 1280, height: 900 },
  });
  const labels: Label[] = [];
  const review: string[] = [];
  try {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    page.on('request', (r) => (new URL(r.url()).hostname === '127.0.0.1' ? void r.continue() : void r.abort()));
    const inv = async (pkg: string, p: string): Promise<Item[]> => {
      await page.goto(`${server.base}/real/${pkg.replace('@', '-')}/package/${p}`, { waitUntil: 'load' });
      await page.addScriptTag({ content: script });
      return page.evaluate(() => aiteBench.inventory());
    };
    for (const [oldPkg, newPkg, oldPage, newPage] of PAIRS) {
      // Only the newest batch is labelled now: the earlier batches' pairs without labels stay so
      // (their figures were measured and fitted on the labels they have).
      if (labelled.has(pairName(oldPkg, newPkg, oldPage)) || batchOf(newPkg) !== NEWEST_BATCH) continue;
      const a = await inv(oldPkg, oldPage);
      const b = await inv(newPkg, newPage);
      const count = (items: Item[]): Map<string, number> => {
        const m = new Map<string, number>();
        for (const i of items) for (const k of new Set(keys(i))) m.set(k, (m.get(k) ?? 0) + 1);
        return m;
      };
      const ca = count(a);
      const cb = count(b);
      const byKey = new Map<string, Item>();
      for (const i of b) for (const k of keys(i)) if (cb.get(k) === 1) byKey.set(k, i);
      const used = new Set<string>();
      const pair = pairName(oldPkg, newPkg, oldPage);
      for (const i of a) {
        const k = keys(i).find((x) => ca.get(x) === 1 && byKey.has(x));
        const m = k ? byKey.get(k)! : undefined;
        if (!m || used.has(m.xpath)) {
          review.push(`${pair}\tUNPAIRED\t${i.tag}\t${i.xpath}\t${JSON.stringify(i.text || i.nameAttr || i.placeholder || i.label)}`);
          continue;
        }
        used.add(m.xpath);
        labels.push({
          pair,
          oldPkg,
          newPkg,
          oldPage,
          newPage,
          old: i.xpath,
          new: m.xpath,
          what: `${i.tag} ${JSON.stringify((i.text || i.nameAttr || i.placeholder || i.label).slice(0, 40))}`,
          ...splitOf(newPkg, pair),
          how: 'auto',
        });
      }
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
  // Keep each menu item once per package pair, then a seeded sample per page pair, then the hand labels.
  const seen = new Set<string>();
  const sampled: Label[] = [];
  const byPage = new Map<string, Label[]>();
  for (const l of labels) {
    const k = `${l.oldPkg}|${l.newPkg}|${l.what}|${l.old}`;
    if (seen.has(k)) continue;
    seen.add(k);
    byPage.set(l.pair, [...(byPage.get(l.pair) ?? []), l]);
  }
  for (const list of byPage.values()) {
    list.sort((a, b) => hash(a.old) - hash(b.old));
    sampled.push(...list.slice(0, PER_PAGE));
  }
  for (const [oldPkg, newPkg, oldPage, newPage, old, nu, what] of HAND) {
    const pair = pairName(oldPkg, newPkg, oldPage);
    if (labelled.has(pair)) continue;
    sampled.push({ pair, oldPkg, newPkg, oldPage, newPage, old, new: nu, what, ...splitOf(newPkg, pair), how: 'hand' });
  }
  labels.length = 0;
  labels.push(...existing, ...sampled);
  writeFileSync(join(tmpdir(), 'aite-label-review.txt'), review.join('\n') + '\n');
  process.stdout.write(JSON.stringify(labels, null, 1) + '\n');
  console.error(`${labels.length} labels (${sampled.length} new), ${review.length} unpaired`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
