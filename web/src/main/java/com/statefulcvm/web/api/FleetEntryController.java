package com.statefulcvm.web.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.web.adoption.FleetEntryDraft;
import com.statefulcvm.fleet.WorkloadCatalog;
import com.statefulcvm.web.adoption.TerraformState;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fleet file's entry for an app Terraform made, from its state: {@code terraform show -json | curl --data-binary @-
 * .../api/fleet-entries/from-terraform?set=consul&workloadType=consul} (docs/terraform.md). It changes nothing and calls
 * nobody: it reads the body and answers the entry to paste. The state holds plaintext env values; the body is never
 * logged and no value is answered, only the env keys' names.
 */
@RestController
@RequestMapping(path = "/api/fleet-entries", produces = "application/json")
class FleetEntryController {

    private final Set<String> workloadTypes;

    FleetEntryController(WorkloadCatalog catalog) {
        this.workloadTypes = catalog.names();
    }

    @PostMapping(path = "/from-terraform", consumes = "application/json")
    Map<String, Object> fromTerraform(@RequestBody JsonNode state, @RequestParam(required = false) String app,
                                      @RequestParam(required = false) String set,
                                      @RequestParam(defaultValue = "generic") String workloadType) {
        if (!workloadTypes.contains(workloadType)) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "workloadType: must be one of " + new java.util.TreeSet<>(workloadTypes)
                    + " (was '" + workloadType + "')");
        }
        FleetEntryDraft.Draft draft;
        try {
            draft = FleetEntryDraft.of(TerraformState.apps(state), app, set, workloadType);
        } catch (IllegalArgumentException e) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, e.getMessage());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("replicaSet", draft.replicaSet());
        out.put("appId", draft.appId());
        out.put("replicas", draft.replicas());
        List<Map<String, Object>> members = draft.members().entrySet().stream().map(m -> {
            Map<String, Object> member = new LinkedHashMap<>();
            member.put("ordinal", m.getKey());
            member.put("name", m.getValue().name());
            member.put("vmUuid", m.getValue().vmUuid());
            member.put("instanceId", m.getValue().instanceId());
            return member;
        }).toList();
        out.put("members", members);
        out.put("fleetEntry", draft.yaml());
        out.put("notes", draft.notes());
        return out;
    }
}
