<?php
// Build the quiz the guide (guide/moodle.md) describes from an imported attndrills pool, let
// several students attempt it through Moodle's quiz API, and record what Moodle graded.
// Usage: php make_quiz_attempts.php COURSESHORTNAME NSTUDENTS SEED OUT.json
//   (first: php ../import_xml.php moodle.xml COURSESHORTNAME — the pool of `attndrills exam … --variants N`)
// The quiz: one random slot per category "Question k (P points)" in order, slot mark P, maximum grade
// = the exam total, deferred feedback.  Students m36-<course>-sNN; each attempt answers every part
// (cloze blanks one by one) right, with a named mistake (a 0% answer carrying feedback), with another
// wrong value, or leaves it blank, drawn from SEED; student 1 answers all right, student 2 leaves all blank.
// OUT.json: per attempt the user, Moodle's sumgrades and quiz grade, per slot the question's idnumber
// (variant code), mark, max mark and Moodle's response summary.
define('CLI_SCRIPT', true);
require('/work/moodle-check/www/config.php');
require_once($CFG->libdir . '/clilib.php');
require_once($CFG->libdir . '/questionlib.php');
require_once($CFG->dirroot . '/mod/quiz/locallib.php');
require_once($CFG->dirroot . '/lib/phpunit/classes/util.php');

use mod_quiz\quiz_settings;
use mod_quiz\quiz_attempt;
use core_question\local\bank\condition;

[$shortname, $nstudents, $seed, $outfile] = array_slice($argv, 1, 4);
mt_srand((int)$seed);
\core\session\manager::set_user(get_admin());
$gen = phpunit_util::get_data_generator();
$course = $DB->get_record('course', ['shortname' => $shortname], '*', MUST_EXIST);
$context = context_course::instance($course->id);

// The categories "Question k (P points)" of the imported pool, in k order.
$cats = [];
foreach ($DB->get_records('question_categories', ['contextid' => $context->id]) as $c) {
    if (preg_match('/^Question (\d+) \(([\d.]+) points?\)$/', $c->name, $m)) {
        $cats[(int)$m[1]] = [$c, (float)$m[2]];
    }
}
ksort($cats);
$total = array_sum(array_map(fn($x) => $x[1], $cats));

$quiz = $gen->create_module('quiz', ['course' => $course->id, 'name' => "Exam $shortname",
        'preferredbehaviour' => 'deferredfeedback', 'grade' => $total, 'sumgrades' => 0, 'questionsperpage' => 0]);
$quizobj = quiz_settings::create($quiz->id);
$structure = $quizobj->get_structure();
foreach ($cats as $k => [$c, $points]) {
    $structure->add_random_questions(0, 1, ['filter' => ['category' => ['jointype' => condition::JOINTYPE_DEFAULT,
            'values' => [$c->id], 'filteroptions' => ['includesubcategories' => false]]]]);
}
$quizobj = quiz_settings::create($quiz->id);
$structure = $quizobj->get_structure();
foreach ($cats as $k => [$c, $points]) {
    $structure->update_slot_maxmark($structure->get_slot_by_number($k), $points);
}
quiz_settings::create($quiz->id)->get_grade_calculator()->recompute_quiz_sumgrades();
$quiz = $DB->get_record('quiz', ['id' => $quiz->id]);
echo "quiz {$quiz->id}: " . count($cats) . " random slots, sumgrades {$quiz->sumgrades}, grade {$quiz->grade}\n";

/** A response to one (sub)question: 'right', 'named' (a 0% answer with feedback), 'wrong' or 'blank'. */
function respond($q, string $how): array {
    if ($how === 'blank') {
        return [];
    }
    $right = $q->get_correct_response();
    if ($how === 'right') {
        return $right;
    }
    if ($q instanceof qtype_numerical_question) {
        $named = array_values(array_filter($q->answers, fn($a) => $a->fraction == 0 && trim(strip_tags($a->feedback)) !== ''));
        if ($how === 'named' && $named) {
            return ['answer' => $named[mt_rand(0, count($named) - 1)]->answer];
        }
        $key = (float)$right['answer'];
        return ['answer' => (string)round($key * 1.37 + 0.11, 4)];
    }
    if ($q instanceof qtype_multichoice_single_question) {
        $wrong = [];
        foreach ($q->order as $i => $ansid) {
            if ($q->answers[$ansid]->fraction <= 0) {
                $wrong[] = $i;
            }
        }
        return $wrong ? ['answer' => $wrong[mt_rand(0, count($wrong) - 1)]] : $right;
    }
    if ($q instanceof qtype_multichoice_multi_question) {
        $r = [];
        foreach ($q->order as $i => $ansid) {
            $r['choice' . $i] = $q->answers[$ansid]->fraction > 0 ? 0 : 1;
        }
        return $r;
    }
    if ($q instanceof qtype_truefalse_question) {
        return ['answer' => $right['answer'] ? 0 : 1];
    }
    if ($q instanceof qtype_match_question) {
        $keys = array_keys($right);   // sub0, sub1, …: rotate the right choices by one (every pair wrong)
        $vals = array_values($right);
        $vals[] = array_shift($vals);
        return array_combine($keys, $vals);
    }
    return $right;
}

function how(int $student): string {
    if ($student === 1) {
        return 'right';
    }
    if ($student === 2) {
        return 'blank';
    }
    $r = mt_rand(1, 100);
    return $r <= 50 ? 'right' : ($r <= 75 ? 'named' : ($r <= 88 ? 'wrong' : 'blank'));
}

$results = [];
for ($s = 1; $s <= (int)$nstudents; $s++) {
    $username = strtolower($shortname) . '-s' . sprintf('%02d', $s);
    if (!$user = $DB->get_record('user', ['username' => $username])) {
        $user = $gen->create_user(['username' => $username, 'firstname' => 'Student' . sprintf('%02d', $s),
                'lastname' => strtoupper($shortname), 'email' => "$username@example.com"]);
    }
    $gen->enrol_user($user->id, $course->id, 'student');
    \core\session\manager::set_user($user);
    $quizobj = quiz_settings::create($quiz->id, $user->id);
    $attempt = quiz_prepare_and_start_new_attempt($quizobj, 1, null);
    $attemptobj = quiz_attempt::create($attempt->id);
    $post = ['slots' => implode(',', $attemptobj->get_slots())];
    foreach ($attemptobj->get_slots() as $slot) {
        $qa = $attemptobj->get_question_attempt($slot);
        $q = $qa->get_question();
        $resp = [];
        if ($q instanceof qtype_multianswer_question) {
            foreach ($q->subquestions as $i => $sub) {
                foreach (respond($sub, how($s)) as $name => $value) {
                    $resp["sub{$i}_$name"] = $value;
                }
            }
        } else {
            $resp = respond($q, how($s));
        }
        foreach ($resp as $name => $value) {
            $post[$qa->get_qt_field_name($name)] = $value;
        }
        $post[$qa->get_control_field_name('sequencecheck')] = $qa->get_sequence_check_count();
    }
    $attemptobj->process_submitted_actions(time(), false, $post);
    $attemptobj = quiz_attempt::create($attempt->id);
    $attemptobj->process_finish(time(), false);
    $attemptobj = quiz_attempt::create($attempt->id);
    $row = $DB->get_record('quiz_attempts', ['id' => $attempt->id]);
    $slots = [];
    foreach ($attemptobj->get_slots() as $slot) {
        $qa = $attemptobj->get_question_attempt($slot);
        $idn = $DB->get_field_sql('SELECT qbe.idnumber FROM {question_bank_entries} qbe
                JOIN {question_versions} qv ON qv.questionbankentryid = qbe.id WHERE qv.questionid = ?',
                [$qa->get_question_id()]);
        $slots[] = ['slot' => $slot, 'variant' => $idn, 'mark' => $qa->get_mark(), 'maxmark' => $qa->get_max_mark(),
                'state' => $qa->get_state()->__toString(), 'response' => $qa->get_response_summary()];
    }
    $results[] = ['username' => $username, 'firstname' => $user->firstname, 'lastname' => $user->lastname,
            'email' => $user->email, 'attempt' => (int)$attempt->id, 'state' => $row->state,
            'sumgrades' => (float)$row->sumgrades, 'grade' => (float)quiz_rescale_grade($row->sumgrades, $quiz, false),
            'slots' => $slots];
    echo "$username: sumgrades {$row->sumgrades}\n";
}
\core\session\manager::set_user(get_admin());
file_put_contents($outfile, json_encode(['course' => $shortname, 'quizid' => (int)$quiz->id, 'cmid' => (int)get_coursemodule_from_instance('quiz', $quiz->id)->id,
        'sumgrades' => (float)$quiz->sumgrades, 'grade' => (float)$quiz->grade, 'attempts' => $results],
        JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES));
