package com.statefulcvm.web.adoption;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Phala apps a Terraform state describes, read from {@code terraform show -json} (the {@code values.root_module}
 * tree, child modules included) or from a state file itself ({@code terraform.tfstate}, format version 4). Only the
 * Phala provider's {@code phala_app} and {@code phala_app_instance} resources are read, and of them only what the
 * fleet file needs. The state holds plaintext env values (the provider keeps them there); they are never read, only
 * the env keys' names.
 */
public final class TerraformState {

    /** One {@code phala_app} and the {@code phala_app_instance}s of the same app_id. */
    public record App(String address, String name, String appId, List<String> members, String dockerCompose, String size,
                      Integer diskSize, String image, List<String> envKeys, Map<String, Member> instances) {
    }

    /** A CVM of the app as the state last saw it: a {@code phala_app_instance}, or an entry of {@code phala_app.instances}. */
    public record Member(String name, String vmUuid, String instanceId, String cvmId, String status) {
    }

    private TerraformState() {
    }

    /** @throws IllegalArgumentException naming what is missing or malformed */
    public static List<App> apps(JsonNode state) {
        if (state == null || !state.isObject()) {
            throw new IllegalArgumentException("the body must be the JSON of `terraform show -json` or of a terraform.tfstate file");
        }
        List<Resource> resources = new ArrayList<>();
        if (state.has("values")) {
            collect(state.path("values").path("root_module"), resources);
        } else if (state.has("resources") && state.path("version").asInt() >= 4) {
            for (JsonNode resource : state.get("resources")) {
                String address = (resource.hasNonNull("module") ? resource.get("module").asText() + "." : "")
                        + resource.path("type").asText() + "." + resource.path("name").asText();
                for (JsonNode instance : resource.path("instances")) {
                    resources.add(new Resource(address + index(instance.get("index_key")), resource.path("type").asText(),
                            resource.path("mode").asText(), instance.path("attributes")));
                }
            }
        } else {
            throw new IllegalArgumentException("neither `values` (terraform show -json) nor `resources` of a version 4 state"
                    + " file: is this a Terraform state?");
        }
        Map<String, App> byAppId = new LinkedHashMap<>();
        for (Resource r : resources) {
            if ("managed".equals(r.mode) && "phala_app".equals(r.type)) {
                String appId = text(r.values, "app_id");
                if (appId == null) {
                    throw new IllegalArgumentException(r.address + ": has no app_id (not applied yet?)");
                }
                Map<String, Member> instances = new LinkedHashMap<>();
                for (JsonNode i : r.values.path("instances")) {
                    Member m = new Member(text(i, "name"), text(i, "vm_uuid"), text(i, "instance_id"), text(i, "id"), text(i, "status"));
                    if (m.name() != null) {
                        instances.put(m.name(), m);
                    }
                }
                byAppId.put(appId, new App(r.address, text(r.values, "name"), appId, strings(r.values.get("members")),
                        text(r.values, "docker_compose"), text(r.values, "size"),
                        r.values.hasNonNull("disk_size") ? r.values.get("disk_size").asInt() : null, text(r.values, "image"),
                        envKeys(r.values), instances));
            }
        }
        for (Resource r : resources) {
            if ("managed".equals(r.mode) && "phala_app_instance".equals(r.type)) {
                App app = byAppId.get(text(r.values, "app_id"));
                String name = text(r.values, "name");
                if (app != null && name != null) {
                    app.instances().put(name, new Member(name, text(r.values, "vm_uuid"), text(r.values, "instance_id"),
                            app.instances().containsKey(name) ? app.instances().get(name).cvmId() : null, text(r.values, "status")));
                }
            }
        }
        return List.copyOf(byAppId.values());
    }

    private record Resource(String address, String type, String mode, JsonNode values) {
    }

    private static void collect(JsonNode module, List<Resource> into) {
        for (JsonNode r : module.path("resources")) {
            into.add(new Resource(r.path("address").asText(), r.path("type").asText(), r.path("mode").asText(), r.path("values")));
        }
        for (JsonNode child : module.path("child_modules")) {
            collect(child, into);
        }
    }

    private static String index(JsonNode key) {
        return key == null || key.isNull() ? "" : key.isNumber() ? "[" + key.asText() + "]" : "[\"" + key.asText() + "\"]";
    }

    /** The env keys' names, from env_keys or the keys of env; never a value. */
    private static List<String> envKeys(JsonNode values) {
        List<String> keys = new ArrayList<>(strings(values.get("env_keys")));
        values.path("env").fieldNames().forEachRemaining(k -> {
            if (!keys.contains(k)) {
                keys.add(k);
            }
        });
        return keys;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
