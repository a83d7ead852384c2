<?php
// Attempts the grader must report rather than grade, added to a quiz made by make_quiz_attempts.php:
// a second, finished attempt by student 3 (all answers right) and an attempt by a new student left in progress.
// Usage: php extra_attempts.php COURSESHORTNAME QUIZID
define('CLI_SCRIPT', true);
require('/work/moodle-check/www/config.php');
require_once($CFG->dirroot . '/mod/quiz/locallib.php');
require_once($CFG->dirroot . '/lib/phpunit/classes/util.php');

use mod_quiz\quiz_settings;
use mod_quiz\quiz_attempt;

[$shortname, $quizid] = array_slice($argv, 1, 2);
$gen = phpunit_util::get_data_generator();
$course = $DB->get_record('course', ['shortname' => $shortname], '*', MUST_EXIST);

function attempt_as($user, $quizid, $finish) {
    \core\session\manager::set_user($user);
    $quizobj = quiz_settings::create($quizid, $user->id);
    $attempts = quiz_get_user_attempts($quizid, $user->id, 'all', true);
    $last = $attempts ? end($attempts) : null;
    $attempt = quiz_prepare_and_start_new_attempt($quizobj, $last ? $last->attempt + 1 : 1, $last);
    $attemptobj = quiz_attempt::create($attempt->id);
    $post = ['slots' => implode(',', $attemptobj->get_slots())];
    foreach ($attemptobj->get_slots() as $slot) {
        $qa = $attemptobj->get_question_attempt($slot);
        foreach ($qa->get_question()->get_correct_response() as $name => $value) {
            $post[$qa->get_qt_field_name($name)] = $value;
        }
        $post[$qa->get_control_field_name('sequencecheck')] = $qa->get_sequence_check_count();
    }
    $attemptobj->process_submitted_actions(time(), false, $post);
    if ($finish) {
        quiz_attempt::create($attempt->id)->process_finish(time(), false);
    }
    echo "{$user->username}: attempt {$attempt->id} " . ($finish ? 'finished' : 'in progress') . "\n";
}
$s3 = $DB->get_record('user', ['username' => strtolower($shortname) . '-s03'], '*', MUST_EXIST);
attempt_as($s3, $quizid, true);
$username = strtolower($shortname) . '-s99';
if (!$u = $DB->get_record('user', ['username' => $username])) {
    $u = $gen->create_user(['username' => $username, 'firstname' => 'Student99', 'lastname' => strtoupper($shortname),
            'email' => "$username@example.com"]);
}
$gen->enrol_user($u->id, $course->id, 'student');
attempt_as($u, $quizid, false);
