// Package action holds the shell steps of wink's GitHub Action (action.yml
// at the repository root: `wink check` on a chart repository's charts) and
// their test.
//
// run.sh is the action's logic, one subcommand per step: build (go build
// of the action's own checkout into $RUNNER_TEMP/wink, reused when an
// earlier use of the action in the job built it), check (wink check with
// the inputs, which action.yml passes as INPUT_* variables: a composite
// action's run steps see its inputs only as ${{ inputs.x }}), and summary
// (summary.md appended to $GITHUB_STEP_SUMMARY). action_test.go reads
// action.yml and runs its steps in order with bash as the runner would:
// expressions substituted, `if: always()` steps run after a failure, the
// `uses:` steps checked for pinned versions and skipped.
package action
