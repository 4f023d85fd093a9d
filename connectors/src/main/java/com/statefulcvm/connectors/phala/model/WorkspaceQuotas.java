package com.statefulcvm.connectors.phala.model;

/**
 * Answer of {@code GET /workspaces/{slug}/quotas} (SDK {@code getWorkspaceQuotas}, {@code GetWorkspaceQuotasSchema}):
 * each metric's {@code limit} and what {@code remaining} of it the workspace can still use.
 */
public record WorkspaceQuotas(String teamSlug, String tier, Quotas quotas, String asOf) {

    public record Quotas(Metric vmSlots, Metric vcpu, Metric memoryMb, Metric diskGb) {
    }

    /** Numbers, as the SDK's {@code z.number()}: a limit may be fractional in principle. */
    public record Metric(double limit, double remaining) {
    }
}
