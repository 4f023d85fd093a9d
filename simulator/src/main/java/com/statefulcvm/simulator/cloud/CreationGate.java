package com.statefulcvm.simulator.cloud;

/**
 * One CVM of the workspace created at a time: a create (provision, commit, new instance) while another CVM of the
 * workspace is still being created ({@code creating}, or {@code pending} for a new instance) answers the 400 users of
 * the real service saw under concurrent creates (Phala-Network/phala-cloud issue #247, "The configuration parameters
 * are not compatible with each other"; Terraform users serialise with {@code -parallelism=1}). The body's exact shape
 * is not documented anywhere: {@code {"detail": "..."}} here.
 */
final class CreationGate {

    static final String BUSY = "The configuration parameters are not compatible with each other";

    private CreationGate() {
    }

    static void check(CvmDirectory directory) {
        for (SimulatedCvm cvm : directory.cvms()) {
            if (CvmLifecycle.CREATING.equals(cvm.status) || CvmLifecycle.PENDING.equals(cvm.status)) {
                throw ApiException.badRequest(BUSY);
            }
        }
    }
}
