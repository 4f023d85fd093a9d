package com.statefulcvm.delegates;

import com.statefulcvm.delegates.rollout.RequireApprovalDecision;
import com.statefulcvm.delegates.rollout.RequireHaltDecision;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngineServices;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

class TaskDecisionValidatorsTest {

    private static DelegateTask taskWith(String name, Object value) {
        DelegateTask task = mock(DelegateTask.class);
        when(task.getVariable(name)).thenReturn(value);
        return task;
    }

    @Test
    void approvalAcceptsOnlyBooleans() {
        RequireApprovalDecision validator = new RequireApprovalDecision();
        assertThatCode(() -> validator.notify(taskWith("approved", true))).doesNotThrowAnyException();
        assertThatCode(() -> validator.notify(taskWith("approved", false))).doesNotThrowAnyException();
        // the approval form's radio answers the text "true" or "false", kept as the boolean
        DelegateTask fromTheForm = taskWith("approved", "false");
        assertThatCode(() -> validator.notify(fromTheForm)).doesNotThrowAnyException();
        verify(fromTheForm).setVariable("approved", false);
        assertThatThrownBy(() -> validator.notify(taskWith("approved", "yes")))
                .isInstanceOf(FormFieldValidationException.class).hasMessageContaining("'yes' of type String");
        assertThatThrownBy(() -> validator.notify(taskWith("approved", "TRUE")))
                .isInstanceOf(FormFieldValidationException.class).hasMessageContaining("choose approve or reject");
        assertThatThrownBy(() -> validator.notify(taskWith("approved", null)))
                .isInstanceOf(FormFieldValidationException.class).hasMessageContaining("missing");
    }

    @Test
    void haltDecisionAcceptsRetrySkipAbortOnly() {
        RequireHaltDecision validator = new RequireHaltDecision();
        for (String ok : new String[] {"retry", "skip", "abort"}) {
            assertThatCode(() -> validator.notify(taskWith("decision", ok))).doesNotThrowAnyException();
        }
        assertThatThrownBy(() -> validator.notify(taskWith("decision", "Retry")))
                .isInstanceOf(FormFieldValidationException.class)
                .hasMessage("Refused: decision must be one of retry, skip or abort (was 'Retry' of type String)");
        assertThatThrownBy(() -> validator.notify(taskWith("decision", null))).hasMessageContaining("was missing");
        assertThatThrownBy(() -> validator.notify(taskWith("decision", 1))).hasMessageContaining("of type Integer");
    }

    @Test
    void anAcceptedDecisionRecordsTheAuthenticatedUserAndTime() {
        DelegateTask task = taskWith("decision", "retry");
        ProcessEngineServices services = mock(ProcessEngineServices.class);
        IdentityService identity = mock(IdentityService.class);
        when(task.getProcessEngineServices()).thenReturn(services);
        when(services.getIdentityService()).thenReturn(identity);
        when(identity.getCurrentAuthentication()).thenReturn(new Authentication("olivia", java.util.List.of("operators")));
        new RequireHaltDecision().notify(task);
        verify(task).setVariableLocal("approvedBy", "olivia");
        verify(task).setVariableLocal(org.mockito.ArgumentMatchers.eq("approvedAt"),
                org.mockito.ArgumentMatchers.argThat(at -> at.toString().matches("\\d{4}-\\d\\d-\\d\\dT.*Z")));

        DelegateTask anonymous = taskWith("approved", true);
        new RequireApprovalDecision().notify(anonymous);
        verify(anonymous).setVariableLocal("approvedBy", "unknown");
    }
}
