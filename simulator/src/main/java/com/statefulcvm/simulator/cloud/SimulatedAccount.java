package com.statefulcvm.simulator.cloud;

/**
 * The one user and workspace every API key acts as. There is no billing: the balance never moves.
 */
public record SimulatedAccount(
        String userId,
        String username,
        String email,
        String workspaceId,
        String workspaceName,
        String workspaceSlug,
        String tier,
        String role,
        String balance) {

    public static final SimulatedAccount DEFAULT = new SimulatedAccount("user_sim0000001", "simulator",
            "simulator@sim.phala.local", "ws_sim0000001", "Simulator", "simulator", "pro", "owner", "1000.00");

    /** The numeric user id of the older API versions ({@code managed_user.id}, {@code user_id}). */
    public static final int LEGACY_USER_ID = 1;
}
