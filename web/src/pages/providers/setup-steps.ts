// The numbered steps the add-provider flow shows, written for someone using the dashboard (what to copy from this
// page, where to paste it on the site, how to send a test vote). The template catalogue's setupInstructions are
// written for the API ("create the provider here with auth_value…"): they are turned into dashboard words here, and
// test/integration/dashboard-providers.test.ts checks that no API word is left for any template in the catalogue.

export interface StepsTemplate {
  name: string;
  authMethod: string;
  authField: string;
  authKeySource?: string | null;
  setupInstructions: string;
}

/**
 * `before`: what is done on the site before the provider exists (a site that makes the secret shows it only once
 * it has the webhook URL, so that URL is given first); `after`: what is left once it is made.
 */
export interface SetupSteps {
  before: string[];
  after: string[];
}

/** The last steps of every flow: the dashboard's own test vote, which pays no reward, and the request log. */
export const testVoteSteps = (providerName: string) => [
  `Send a test vote: press Test vote beside ${providerName} in the providers list. It goes through this webhook as a ` +
    'real delivery would and is recorded as a test, so no game server rewards anyone for it.',
  'Open Requests beside it to see every request that reached the webhook, accepted or refused, and what to fix when one is refused.',
];

/** Words of the API that a dashboard user never sees; none may be left in a step (the test checks). */
export const API_WORDS = /auth_value|webhook_url|votifier\.|response|create the provider here|\bhere\b/i;

const sentenceCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const withStop = (s: string) => (/[.!?…]$/.test(s) ? s : `${s}.`);

/** "1. … 2. …" (or one paragraph) into its steps. */
export function splitNumbered(text: string): string[] {
  return text
    .split(/(?:^|\s+)\d+\.\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The API's names for what this page shows, in the page's words; `where` says where the URL is on the screen. */
function inDashboardWords(step: string, where: 'above' | 'below'): string {
  return step
    .replace(/this provider's webhook URL/g, `the Webhook URL ${where}`)
    .replace(/that full webhook_url/g, `the full Webhook URL ${where}`)
    .replace(/this provider's webhook_url/g, `the Webhook URL ${where}`)
    .replace(/the auth_value/g, 'the Secret above')
    .replace(/auth_value/g, 'the Secret')
    .replace(/webhook_url/g, 'Webhook URL')
    .replace(/the relay answers/g, 'Vote Relay answers');
}

const CREATE_STEP = /^Create the provider here\b/;

export function templateSteps(template: StepsTemplate, providerName: string): SetupSteps {
  if (template.authMethod === 'votifier') return votifierTemplateSteps(template, providerName);
  const steps = splitNumbered(template.setupInstructions);
  const at = steps.findIndex((s) => CREATE_STEP.test(s));
  const siteMakesSecret = !template.authKeySource;
  if (siteMakesSecret) {
    const before = (at < 0 ? steps : steps.slice(0, at)).map((s) => withStop(inDashboardWords(s, 'below')));
    const after: string[] = [];
    if (at >= 0) {
      // "Create the provider here from this template with that secret as auth_value, then send a test from …"
      const then = /,\s*then\s+(.+)$/.exec(steps[at]!)?.[1];
      before.push(`Paste that secret into the ${template.name} secret field below, then press Create provider.`);
      after.push(`Nothing else to paste: ${template.name} already has the Webhook URL above and signs with the secret you pasted.`);
      if (then) {
        const siteTest = inDashboardWords(then.replace(/\.$/, ''), 'above');
        after.push(withStop(siteTest.includes(template.name) ? sentenceCase(siteTest) : `On ${template.name}, ${siteTest}`));
      }
      after.push(...steps.slice(at + 1).map((s) => withStop(inDashboardWords(s, 'above'))));
    }
    after.push(...testVoteSteps(providerName));
    return { before, after };
  }
  const after: string[] = [];
  steps.forEach((step, i) => {
    if (i !== at) {
      after.push(withStop(inDashboardWords(step, 'above')));
      return;
    }
    // The dashboard already made the secret: what is left of this step is what to do with it.
    const rest = step.replace(/^Create the provider here[^.]*\.\s*/, '');
    const carried = /^The webhook_url in the response already carries it as (.+?)\.?$/.exec(rest);
    if (carried) after.push(`Copy the Webhook URL above: it already carries the secret (${carried[1]}), so there is nothing else to paste.`);
    else if (rest) after.push(withStop(inDashboardWords(rest, 'above')));
  });
  after.push(...testVoteSteps(providerName));
  return { before: [], after };
}

function votifierTemplateSteps(template: StepsTemplate, providerName: string): SetupSteps {
  if (!template.authKeySource) {
    // The list makes the token and sends Votifier v2 over HTTP to the webhook URL.
    return {
      before: [
        `On ${template.name}, copy the Votifier token it shows for your server and paste it into the ${template.name} Votifier token field below, then press Create provider.`,
      ],
      after: [`On ${template.name}, set the Votifier endpoint to the Votifier over HTTP URL above and save.`, ...testVoteSteps(providerName)],
    };
  }
  return { before: [], after: votifierSteps(template.name, providerName) };
}

/** A list that delivers by the Votifier protocol to a host and port (the relay made the key pair and the token). */
export function votifierSteps(siteName: string | null, providerName: string): string[] {
  const on = siteName ? `On ${siteName}` : 'On each Votifier list';
  return [
    `${on}, open your server's settings and find its Votifier fields.`,
    'Enter the Host and the Port above as the Votifier address (or IP) and port.',
    'Where it asks for a public key, paste the Public key above (protocol v1); where it asks for a token, paste the ' +
      'Token (protocol v2, NuVotifier). Copy the token now: it is never shown again.',
    "Save, then use the list's own test button if it has one.",
    ...testVoteSteps(providerName),
  ];
}

export interface CustomSettings {
  authMethod: string;
  authField: string;
  signatureFormat?: string | null;
  authTimestampField?: string | null;
  payloadSource: string;
  voteePath: string;
}

const SOURCE_WORDS: Record<string, string> = {
  json: 'a JSON body (POST)',
  form: 'a form body (POST)',
  query: 'the query string of a GET',
};

/** A site without a template: the steps follow the settings chosen in the form. */
export function customSteps(settings: CustomSettings, providerName: string): string[] {
  const { authMethod, authField } = settings;
  const urlHoldsSecret = authMethod === 'query' || authMethod === 'url_path';
  const steps = [
    'On the voting site, open its vote webhook (or postback) settings and paste the Webhook URL above as the address votes are sent to' +
      (urlHoldsSecret ? ': it already carries the secret, so paste it whole.' : '.'),
  ];
  if (authMethod === 'header') {
    steps.push(`Paste the Secret above where the site asks for its secret or token: it must send it in the ${authField} header.`);
  } else if (authMethod === 'hmac') {
    const format = settings.signatureFormat === 'topgg' ? ' as t=<unix>,v1=<hex>' : '';
    const time =
      settings.signatureFormat !== 'topgg' && settings.authTimestampField ? `, with the signing time in the ${settings.authTimestampField} header` : '';
    steps.push(
      `Paste the Secret above where the site asks for its signing secret: it signs each body with HMAC-SHA256 in the ${authField} header${format}${time}.`,
    );
  }
  steps.push(
    `Check that the site sends the voter's name at ${settings.voteePath} in ${SOURCE_WORDS[settings.payloadSource] ?? settings.payloadSource}, then save.`,
  );
  steps.push(...testVoteSteps(providerName));
  return steps;
}

/** What is wrong with the addresses Vote Relay gives out (Organization.hookAddressWarning, votifierAddressWarning). */
export interface AddressWarnings {
  hooks: string | null;
  votifier: string | null;
}

/** A step that gives the site the hook URL, or a Votifier list the host and port. */
// ("Nothing else to paste: … already has the Webhook URL" gives nothing: the site has it from a step before.)
const GIVES_HOOK_URL = /^(?!Nothing else to paste).*(?:Webhook URL|Votifier over HTTP URL)/;
const GIVES_VOTIFIER_ADDRESS = /\bHost and the Port\b/;

/**
 * The steps with every one that hands the site an address it cannot reach (README "First steps") saying so first:
 * the address is not something to paste yet.
 */
export function withReach(steps: string[], warnings: AddressWarnings): string[] {
  return steps.map((step) => {
    const warning = GIVES_HOOK_URL.test(step) ? warnings.hooks : GIVES_VOTIFIER_ADDRESS.test(step) ? warnings.votifier : null;
    if (!warning) return step;
    return `Not yet: ${warning.replace(/^This address/, 'the address Vote Relay gives out')} (README, First steps) and restart Vote Relay; once it gives an address the site can reach: ${step.charAt(0).toLowerCase()}${step.slice(1)}`;
  });
}
