package com.statefulcvm.web.adoption;

import com.statefulcvm.fleet.Slots;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fleet file's entry for a set adopted from an app that Terraform made: its {@code app-id}, as many replicas as the
 * app has members, and the compose the app runs, byte for byte, so that every member is admitted as it is (a compose
 * that differs in one line is none of the composes we intend, and would be refused). A member named
 * {@code <set>-<ordinal>} fills that slot; one named otherwise (Terraform cannot rename it: a phala_app_instance's name
 * forces its replacement) gets the lowest free ordinal, in the order the state lists the members, and the entry's
 * {@code members:} lists every member by name in ordinal order. Env values are never carried: the fleet file names no secret, and Terraform keeps them.
 */
public final class FleetEntryDraft {

    private static final Pattern SET_NAME = Pattern.compile("^[a-z][a-z0-9-]*[a-z0-9]$");
    private static final Pattern ORDINAL_SUFFIX = Pattern.compile("^(.+)-(\\d+)$");

    /** @param notes what the operator should know before adopting (env kept by Terraform, sizes, the lifecycle block) */
    public record Draft(String replicaSet, String appId, int replicas, Map<Integer, TerraformState.Member> members,
                        String yaml, List<String> notes) {
    }

    private FleetEntryDraft() {
    }

    /**
     * @param apps         the state's apps
     * @param app          which app: its resource address, name or app_id; null when the state holds exactly one
     * @param set          the set's name; null: the members' common prefix
     * @param workloadType the set's workload type (generic, etcd, consul, patroni)
     * @throws IllegalArgumentException naming the field and the cause
     */
    public static Draft of(List<TerraformState.App> apps, String app, String set, String workloadType) {
        TerraformState.App chosen = choose(apps, app);
        if (chosen.dockerCompose() == null || chosen.dockerCompose().isBlank()) {
            throw new IllegalArgumentException(chosen.address() + ": has no docker_compose in the state");
        }
        List<String> names = !chosen.members().isEmpty() ? chosen.members()
                : !chosen.instances().isEmpty() ? new ArrayList<>(chosen.instances().keySet()) : List.of(chosen.name());
        String name = set != null && !set.isBlank() ? set : commonPrefix(names);
        if (!SET_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("set: must be lower-case letters, digits and '-', starting with a letter (was '" + name + "')");
        }
        Map<Integer, TerraformState.Member> byOrdinal = new TreeMap<>();
        List<String> otherwiseNamed = new ArrayList<>();
        for (String member : names) {
            OptionalInt ordinal = Slots.ordinalOf(name, member);
            if (ordinal.isEmpty()) {
                otherwiseNamed.add(member);
            } else if (byOrdinal.put(ordinal.getAsInt(), memberOf(chosen, member)) != null) {
                throw new IllegalArgumentException("members: two are slot " + ordinal.getAsInt() + " of '" + name + "'");
            }
        }
        Map<Integer, String> mapped = new TreeMap<>();
        int free = 0;
        for (String member : otherwiseNamed) {
            while (byOrdinal.containsKey(free)) {
                free++;
            }
            byOrdinal.put(free, memberOf(chosen, member));
            mapped.put(free, member);
        }
        if (!mapped.isEmpty()) {
            // the list names every slot's CVM, those named after their slot too: members[i] fills slot i
            byOrdinal.forEach((ordinal, member) -> mapped.putIfAbsent(ordinal, member.name()));
        }
        for (int ordinal = 0; ordinal < byOrdinal.size(); ordinal++) {
            if (!byOrdinal.containsKey(ordinal)) {
                throw new IllegalArgumentException("members: " + name + "-" + ordinal + " is missing: the ordinals must run from 0"
                        + " to " + (byOrdinal.size() - 1) + " (have " + byOrdinal.keySet() + "); adoption never creates a CVM");
            }
        }
        List<String> notes = new ArrayList<>();
        if (!chosen.envKeys().isEmpty()) {
            notes.add("env keys " + chosen.envKeys() + " stay Terraform's (their values are in its state, never in the fleet"
                    + " file); an env rollout of this set seals new values to the app's key");
        }
        if (!mapped.isEmpty()) {
            notes.add("members " + String.join(", ", otherwiseNamed) + " are not named " + name + "-<ordinal>: members: lists"
                    + " each slot's CVM in ordinal order (" + mapped + "); check the order before adopting, a slot's ordinal is its identity");
        }
        notes.add("add lifecycle { ignore_changes = [docker_compose, env, pre_launch_script] } to " + chosen.address()
                + " before the first rollout through the orchestrator, or Terraform's next apply reverts it on every member"
                + " at once (docs/terraform.md)");
        return new Draft(name, chosen.appId(), byOrdinal.size(), byOrdinal, yaml(chosen, name, byOrdinal.size(), workloadType, mapped), notes);
    }

    private static TerraformState.App choose(List<TerraformState.App> apps, String app) {
        if (apps.isEmpty()) {
            throw new IllegalArgumentException("the state holds no phala_app resource");
        }
        if (app == null || app.isBlank()) {
            if (apps.size() > 1) {
                throw new IllegalArgumentException("app: the state holds " + apps.size() + " apps ("
                        + apps.stream().map(TerraformState.App::address).toList() + "); name one by address, name or app_id");
            }
            return apps.get(0);
        }
        String bare = app.startsWith("app_") ? app.substring(4) : app;
        return apps.stream().filter(a -> app.equals(a.address()) || app.equals(a.name()) || bare.equals(stripped(a.appId())))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("app: no phala_app '" + app + "' in the state (have "
                        + apps.stream().map(TerraformState.App::address).toList() + ")"));
    }

    private static String stripped(String appId) {
        return appId != null && appId.startsWith("app_") ? appId.substring(4) : appId;
    }

    /** "consul" of consul-0, consul-1, ...; the first name itself when they share none. */
    private static String commonPrefix(List<String> names) {
        String prefix = null;
        for (String name : names) {
            Matcher m = ORDINAL_SUFFIX.matcher(name);
            String p = m.matches() ? m.group(1) : name;
            if (prefix == null) {
                prefix = p;
            } else if (!prefix.equals(p)) {
                return names.get(0);
            }
        }
        return prefix;
    }

    private static TerraformState.Member memberOf(TerraformState.App app, String member) {
        return app.instances().getOrDefault(member, new TerraformState.Member(member, null, null, null, null));
    }

    private static String yaml(TerraformState.App app, String set, int replicas, String workloadType, Map<Integer, String> members) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", set);
        entry.put("app-id", app.appId().startsWith("app_") ? app.appId() : "app_" + app.appId());
        entry.put("replicas", replicas);
        entry.put("workload-type", workloadType == null || workloadType.isBlank() ? "generic" : workloadType);
        if (!members.isEmpty()) {
            entry.put("members", new ArrayList<>(members.values()));
        }
        if (app.size() != null) {
            entry.put("instance-type", app.size());
        }
        if (app.diskSize() != null) {
            entry.put("disk-size", app.diskSize());
        }
        // the compose exactly as the app runs it: a literal block keeps every line and line end
        entry.put("docker-compose", app.dockerCompose());
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndent(2);
        options.setIndicatorIndent(0);
        options.setWidth(Integer.MAX_VALUE);
        options.setSplitLines(false);
        String body = new Yaml(new LiteralBlocks(), options).dump(List.of(entry));
        return "# from " + app.address() + " (Terraform state); orchestrator.fleet.replica-sets entry\n" + body;
    }

    /** Multi-line strings as literal blocks (|), so the compose reads as it is and round-trips byte for byte. */
    private static final class LiteralBlocks extends org.yaml.snakeyaml.representer.Representer {
        LiteralBlocks() {
            super(new DumperOptions());
            this.representers.put(String.class, data -> {
                String text = (String) data;
                return representScalar(org.yaml.snakeyaml.nodes.Tag.STR, text,
                        text.contains("\n") ? DumperOptions.ScalarStyle.LITERAL : DumperOptions.ScalarStyle.PLAIN);
            });
        }
    }
}
