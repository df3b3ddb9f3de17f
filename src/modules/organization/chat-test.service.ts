// POST /v1/organization/test-chat-webhook: renders a sample message and really sends it to the given webhook.
import { z } from 'zod';
import type { AppDeps } from '../../app/deps.js';
import { AppError, validationError } from '../../base/errors.js';
import { planAtLeast } from '../../domain/plans.js';
import { buildChatMessage, platformReason } from '../../delivery/chat-message.js';
import { voteLookup } from '../../delivery/template.js';
import { sampleTemplateValues } from '../../delivery/template-variables.js';
import { OutboundError } from '../../net/outbound-http.js';
import { embedTemplateSchema, type OrganizationService } from './organization.service.js';

/** testChatWebhook's input rule (graphql/input-rules.ts). */
export const testChatWebhookInput = z
  .object({
    webhookUrl: z.string().min(1, 'is required').max(2000),
    messageType: z.enum(['simple', 'embed'], 'must be simple or embed').default('simple'),
    messageTemplate: z.string().min(1, 'must not be empty').max(2000).optional(),
    embedTemplate: embedTemplateSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.messageType === 'simple' && value.messageTemplate === undefined) {
      ctx.addIssue({ code: 'custom', path: ['messageTemplate'], message: 'is required when message_type is simple' });
    }
    if (value.messageType === 'embed' && value.embedTemplate === undefined) {
      ctx.addIssue({ code: 'custom', path: ['embedTemplate'], message: 'is required when message_type is embed' });
    }
  });

// A chat platform that has not answered in 10 s will not; the caller is waiting on this request.
const TEST_TIMEOUT_MS = 10_000;

export function createChatTestService(deps: AppDeps, organizations: OrganizationService) {
  return {
    async send(organizationId: string, input: z.output<typeof testChatWebhookInput>): Promise<{ success: boolean; message: string }> {
      const org = await organizations.get(organizationId);
      if (input.messageType === 'embed' && !planAtLeast(org.plan, 'growth')) {
        throw new AppError('PLAN_UPGRADE_REQUIRED', 'Embed messages need the growth plan or higher', {
          required_plan: 'growth',
          current_plan: org.plan,
          field: 'message_type',
        });
      }
      const reason = await deps.http.checkTarget(input.webhookUrl);
      if (reason) throw validationError([{ field: 'webhook_url', message: reason }]);

      const lookup = voteLookup(sampleTemplateValues(deps.clock.now(), org));
      const body = buildChatMessage({ type: input.messageType, template: input.messageTemplate ?? '', embedTemplate: input.embedTemplate ?? null }, lookup, {
        test: true,
      });
      let response;
      try {
        response = await deps.http.post(input.webhookUrl, {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          timeoutMs: TEST_TIMEOUT_MS,
        });
      } catch (err) {
        const message = err instanceof OutboundError ? err.message : 'Request failed';
        throw new AppError('WEBHOOK_ERROR', 'The test message could not be delivered', { error: message });
      }
      if (response.status < 200 || response.status >= 300) {
        throw new AppError('WEBHOOK_ERROR', 'The test message could not be delivered', {
          error: platformReason(response.status, response.body),
        });
      }
      return { success: true, message: 'Test message sent' };
    },
  };
}
