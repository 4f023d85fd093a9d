package com.statefulcvm.simulator.cloud;

import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the state file, when there is one, in step with the cloud: the whole state saved after every change, taken
 * back at startup. Used only under {@link SimulatedCloud}'s lock, so a save never sees a change half made.
 */
final class StateFile {

    // the cloud's logger, so the simulator's log reads as before the split
    private static final Logger log = LoggerFactory.getLogger(SimulatedCloud.class);

    /** Null without a state file: then nothing is saved or loaded. */
    private final StateStore store;
    private final CvmDirectory directory;
    private final Provisioning provisioning;
    private final EventJournal journal;

    StateFile(StateStore store, CvmDirectory directory, Provisioning provisioning, EventJournal journal) {
        this.store = store;
        this.directory = directory;
        this.provisioning = provisioning;
        this.journal = journal;
    }

    /** A failed save is logged, not thrown: the change it records has been made and answered already. */
    void save() {
        if (store == null) {
            return;
        }
        try {
            store.save(new SimulatorState(SimulatorState.CURRENT_VERSION, List.copyOf(directory.apps()),
                    List.copyOf(directory.cvms()), List.copyOf(provisioning.pending()), journal.since(0),
                    journal.lastSeq(), directory.lastCvmSeq()));
        } catch (RuntimeException e) {
            log.warn("cannot save the simulator state to {}", store.file(), e);
        }
    }

    /**
     * Loads the state file, if any; {@code completeInFlight} then finishes the operations that were in flight when
     * it was saved (their scheduled hops died with the old process) and answers how many there were.
     */
    void load(IntSupplier completeInFlight) {
        if (store == null) {
            return;
        }
        Optional<SimulatorState> saved = store.load();
        if (saved.isEmpty()) {
            log.info("simulator state file {} does not exist yet; starting empty", store.file());
            return;
        }
        SimulatorState state = saved.get();
        directory.restore(state.apps(), state.cvms(), state.lastCvmSeq());
        provisioning.restore(state.provisions());
        journal.restore(state.events(), state.lastEventSeq());
        for (SimulatedApp app : directory.apps()) {
            // files written before the simulated KMS held a random key nothing could decrypt with
            app.envPubkey = SimulatedKms.envPublicKey(app.appId);
        }
        int completed = completeInFlight.getAsInt();
        log.info("simulator state loaded from {}: {} apps, {} CVMs, {} operations completed on load",
                store.file(), directory.apps().size(), directory.cvms().size(), completed);
        save();
    }
}
