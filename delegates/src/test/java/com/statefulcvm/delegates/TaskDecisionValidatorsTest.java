package com.statefulcvm.delegates;

import com.statefulcvm.delegates.rollout.RequireApprovalDecision;
import com.statefulcvm.delegates.rollout.RequireHaltDecision;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
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
        assertThatThrownBy(() -> validator.notify(taskWith("approved", "true")))
                .isInstanceOf(FormFieldValidationException.class).hasMessageContaining("'true' of type String");
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
}
