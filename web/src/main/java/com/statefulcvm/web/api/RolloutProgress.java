package com.statefulcvm.web.api;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL;

/**
 * Where a rollout stands, for a picture: each wave's instances and whether each wave is done, running or pending, the
 * wave it works on ("wave 2 of 3"), how long it has run, and whether it is paused or a pause is asked for. Decided from
 * the plan (its waves) and the instance steps it recorded as done; nothing is guessed from the stage's words.
 *
 * @param waves       each wave's instances, in the order they run (a surge is wave 1 when there is one)
 * @param waveStates  per wave: "done", "running" or "pending" ("stopped" for those an ended rollout never finished)
 * @param currentWave the wave it works on, counted from 1; null when none (not started yet, or ended)
 */
public record RolloutProgress(List<List<String>> waves, List<String> waveStates, int wavesDone,
                              @JsonInclude(NON_NULL) Integer currentWave, List<String> instancesDone, int instancesTotal,
                              long elapsedSeconds, boolean paused, boolean pauseRequested, String summary) {

    public static RolloutProgress of(List<List<String>> waves, Collection<String> done, boolean running, Instant startedAt,
                                     Instant endedOrNow, boolean paused, boolean pauseRequested) {
        Set<String> finished = Set.copyOf(done);
        List<String> states = new ArrayList<>();
        Integer current = null;
        int wavesDone = 0;
        int total = 0;
        List<String> instancesDone = new ArrayList<>();
        for (List<String> wave : waves) {
            total += wave.size();
            wave.stream().filter(finished::contains).forEach(instancesDone::add);
            boolean waveDone = !wave.isEmpty() && finished.containsAll(wave);
            if (waveDone) {
                wavesDone++;
                states.add("done");
            } else if (running && current == null) {
                current = states.size() + 1;
                states.add("running");
            } else {
                states.add(running ? "pending" : "stopped");
            }
        }
        long elapsed = startedAt == null || endedOrNow == null ? 0 : Math.max(0, Duration.between(startedAt, endedOrNow).toSeconds());
        String summary = waves.isEmpty() ? "no wave planned yet"
                : (current != null ? "wave " + current + " of " + waves.size() : wavesDone + " of " + waves.size() + " waves done")
                + ", " + instancesDone.size() + " of " + total + " instances updated, " + elapsed(elapsed)
                + (paused ? ", paused" : pauseRequested ? ", pause requested (takes effect at the wave's end)" : "");
        return new RolloutProgress(waves, states, wavesDone, current, instancesDone, total, elapsed, paused, pauseRequested, summary);
    }

    private static String elapsed(long seconds) {
        return seconds < 60 ? seconds + " s" : seconds / 60 + " min " + seconds % 60 + " s";
    }
}
