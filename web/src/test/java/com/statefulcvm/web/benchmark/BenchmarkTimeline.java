package com.statefulcvm.web.benchmark;

import com.statefulcvm.web.SimulatorView;
import com.fasterxml.jackson.databind.JsonNode;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.history.HistoricActivityInstance;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One finished rollout as the benchmark reads it: from the engine's history (the process instance, each wave, each
 * instance step and the activities inside it) and the simulator's journal (when each CVM went {@code updating} and
 * came back {@code running}). All times are epoch milliseconds of this JVM's clock, which the engine, the simulator
 * and the benchmark share.
 *
 * <p>The rollout's time splits without remainder into: plan (POST to the first wave), the waves, the gaps between
 * waves, and finish (the last wave to the process's end). A wave's time is the theoretical round (update time + min
 * ready) plus its overhead. Inside a wave each instance step splits into: before the update (a drain hook where the
 * diagram has one, the apply job's pickup and the PATCH), the simulated update, detecting that the CVM runs again
 * (the last poll), admission (attestation and the health gate, one after the other or side by side, whichever the
 * diagram does; min ready plus the probes' and timers' lateness) and after admission (a rejoin hook where the
 * diagram has one, recording the instance as updated, leaving the step).
 */
record BenchmarkTimeline(String set, String processInstanceId, long posted, long ended, String endActivity,
                         int plannedRounds, int journalRounds, List<Wave> waves) {

    /** One instance step ({@code SubProcess_UpdateSlot}): its CVM and the moments that split it. */
    record Step(String cvm, long start, long drain, long updating, long running, long attestStart, long attestEnd,
                long firstProbe, long gateEnd, long end, int polls, int probes) {

        long duration() { return end - start; }
        long beforeUpdate() { return updating - start; }
        long update() { return running - updating; }
        /** From running again until the first check of the instance (attestation or probe) starts: the last poll. */
        long detectRunning() { return firstCheck() - running; }
        /** From the first check until the instance is both attested and through the health gate. */
        long admission() { return admitted() - firstCheck(); }
        long attest() { return attestEnd - attestStart; }
        /** The health gate, first probe to the passing one. */
        long healthGate() { return gateEnd - firstProbe; }
        long afterGate() { return end - admitted(); }

        private long firstCheck() { return Math.min(attestStart, firstProbe); }

        private long admitted() { return Math.max(attestEnd, gateEnd); }
    }

    /** One wave ({@code SubProcess_RollOutInWaves}): the steps that ran together. */
    record Wave(long start, long end, List<Step> steps) {

        long duration() { return end - start; }
    }

    long measured() { return ended - posted; }

    long plan() { return waves.isEmpty() ? measured() : waves.get(0).start() - posted; }

    long finish() { return waves.isEmpty() ? 0 : ended - waves.get(waves.size() - 1).end(); }

    long gaps() {
        long gaps = 0;
        for (int i = 1; i < waves.size(); i++) {
            gaps += waves.get(i).start() - waves.get(i - 1).end();
        }
        return gaps;
    }

    long wavesTime() { return waves.stream().mapToLong(Wave::duration).sum(); }

    List<Step> steps() { return waves.stream().flatMap(w -> w.steps().stream()).toList(); }

    static BenchmarkTimeline read(HistoryService history, String set, String pid, long posted, List<JsonNode> setEvents) {
        HistoricProcessInstance process = history.createHistoricProcessInstanceQuery().processInstanceId(pid).singleResult();
        List<HistoricActivityInstance> activities = history.createHistoricActivityInstanceQuery().processInstanceId(pid).list();
        Map<String, HistoricActivityInstance> byId = new HashMap<>();
        Map<String, List<HistoricActivityInstance>> children = new HashMap<>();
        for (HistoricActivityInstance a : activities) {
            byId.put(a.getId(), a);
            children.computeIfAbsent(a.getParentActivityInstanceId(), k -> new ArrayList<>()).add(a);
        }
        List<HistoricActivityInstance> waveInstances = activities.stream()
                .filter(a -> "SubProcess_RollOutInWaves".equals(a.getActivityId()))
                .sorted(Comparator.comparing(HistoricActivityInstance::getStartTime)).toList();
        Map<String, List<Step>> stepsByWave = new HashMap<>();
        Set<Long> usedUpdates = new HashSet<>();
        activities.stream().filter(a -> "SubProcess_UpdateSlot".equals(a.getActivityId()))
                .sorted(Comparator.comparing(HistoricActivityInstance::getStartTime))
                .forEach(s -> {
                    String wave = enclosing(byId, s, "SubProcess_RollOutInWaves");
                    stepsByWave.computeIfAbsent(wave, k -> new ArrayList<>())
                            .add(step(s, children.getOrDefault(s.getId(), List.of()), setEvents, usedUpdates));
                });
        List<Wave> waves = waveInstances.stream()
                .map(w -> new Wave(ms(w.getStartTime()), ms(w.getEndTime()), stepsByWave.getOrDefault(w.getId(), List.of())))
                .toList();
        return new BenchmarkTimeline(set, pid, posted, ms(process.getEndTime()), process.getEndActivityId(),
                plannedRounds(history, pid), SimulatorView.rounds(setEvents), waves);
    }

    /** The plan's rounds: the size of the history variable {@code waves} (a list of lists of slots). */
    private static int plannedRounds(HistoryService history, String pid) {
        HistoricVariableInstance waves = history.createHistoricVariableInstanceQuery().processInstanceId(pid)
                .variableName("waves").list().stream().findFirst().orElse(null);
        return waves != null && waves.getValue() instanceof List<?> list ? list.size() : -1;
    }

    private static String enclosing(Map<String, HistoricActivityInstance> byId, HistoricActivityInstance a, String activityId) {
        HistoricActivityInstance at = byId.get(a.getParentActivityInstanceId());
        while (at != null && !activityId.equals(at.getActivityId())) {
            at = byId.get(at.getParentActivityInstanceId());
        }
        return at == null ? null : at.getId();
    }

    /**
     * The step's CVM is the one whose {@code updating} event lies inside its apply activity: the PATCH happens there,
     * and the apply jobs of one process instance are exclusive, so they never overlap.
     */
    private static Step step(HistoricActivityInstance s, List<HistoricActivityInstance> inside, List<JsonNode> events,
                             Set<Long> usedUpdates) {
        HistoricActivityInstance apply = last(inside, "Task_ApplyPlannedAction");
        HistoricActivityInstance attest = last(inside, "CallActivity_AttestInstance");
        HistoricActivityInstance drain = last(inside, "CallActivity_DrainInstance");
        HistoricActivityInstance lastProbe = last(inside, "Task_ProbeHealth");
        HistoricActivityInstance firstProbe = inside.stream().filter(a -> "Task_ProbeHealth".equals(a.getActivityId()))
                .min(Comparator.comparing(HistoricActivityInstance::getStartTime)).orElse(null);
        int polls = (int) inside.stream().filter(a -> "Task_AwaitCvmRunning".equals(a.getActivityId())).count();
        int probes = (int) inside.stream().filter(a -> "Task_ProbeHealth".equals(a.getActivityId())).count();
        long start = ms(s.getStartTime());
        long end = ms(s.getEndTime());
        String cvm = null;
        long updating = start;
        long running = start;
        if (apply != null) {
            for (JsonNode e : events) {
                long at = Instant.parse(e.get("at").asText()).toEpochMilli();
                if ("updating".equals(e.get("to").asText()) && !usedUpdates.contains(e.get("seq").asLong())
                        && at >= ms(apply.getStartTime()) - 1 && at <= ms(apply.getEndTime()) + 1) {
                    usedUpdates.add(e.get("seq").asLong());
                    cvm = e.get("cvm").asText();
                    updating = at;
                    running = firstAfter(events, cvm, "running", e.get("seq").asLong()).orElse(updating);
                    break;
                }
            }
        }
        long attestStart = attest == null ? running : ms(attest.getStartTime());
        long attestEnd = attest == null ? attestStart : ms(attest.getEndTime());
        long gateEnd = lastProbe == null ? attestEnd : ms(lastProbe.getEndTime());
        long probed = firstProbe == null ? attestEnd : ms(firstProbe.getStartTime());
        long drained = drain == null ? 0 : ms(drain.getEndTime()) - ms(drain.getStartTime());
        return new Step(cvm, start, drained, updating, running, attestStart, attestEnd, probed, gateEnd, end, polls, probes);
    }

    private static java.util.Optional<Long> firstAfter(List<JsonNode> events, String cvm, String to, long seq) {
        return events.stream().filter(e -> e.get("seq").asLong() > seq && cvm.equals(e.get("cvm").asText())
                        && to.equals(e.get("to").asText()))
                .map(e -> Instant.parse(e.get("at").asText()).toEpochMilli()).findFirst();
    }

    private static HistoricActivityInstance last(List<HistoricActivityInstance> activities, String activityId) {
        return activities.stream().filter(a -> activityId.equals(a.getActivityId()) && a.getEndTime() != null)
                .max(Comparator.comparing(HistoricActivityInstance::getStartTime)).orElse(null);
    }

    private static long ms(java.util.Date date) {
        return date == null ? 0 : date.getTime();
    }
}
