package com.statefulcvm.fleet.effects;

/**
 * A call to Phala Cloud that changes a CVM: what the orchestrator must never make twice for one intention, and never
 * repeat without first looking whether the earlier request took.
 */
public enum Effect {
    CREATE,
    START,
    STOP,
    SHUTDOWN,
    RESTART,
    UPDATE_COMPOSE,
    UPDATE_ENV,
    DELETE
}
