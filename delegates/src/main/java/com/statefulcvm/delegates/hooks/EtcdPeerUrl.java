package com.statefulcvm.delegates.hooks;

import com.statefulcvm.fleet.Slots;

import java.util.Optional;

/** The peer URL the slot's etcd member advertises, from the set's scaling section (explicit map, then template). */
final class EtcdPeerUrl {

    private EtcdPeerUrl() {
    }

    static int ordinal(HookContext context) {
        return Slots.ordinalOf(context.spec().getName(), context.slot()).orElseThrow();
    }

    static Optional<String> of(HookContext context) {
        return context.spec().getScaling().peerUrl(context.spec().getName(), ordinal(context));
    }
}
