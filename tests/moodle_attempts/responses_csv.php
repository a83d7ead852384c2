<?php
// Download a quiz's "Responses" report as CSV through Moodle's own report code (mod/quiz/report/responses,
// its table and the csv dataformat), as a teacher's "Download" button does.
// Usage: php responses_csv.php CMID OUT.csv [qtext=1] [right=0]
//   Defaults of the report: responses shown, question text and right answer not; here qtext=1 unless given.
define('CLI_SCRIPT', true);
require('/work/moodle-check/www/config.php');
require_once($CFG->dirroot . '/mod/quiz/locallib.php');
require_once($CFG->dirroot . '/mod/quiz/report/reportlib.php');
require_once($CFG->dirroot . '/mod/quiz/report/default.php');
require_once($CFG->dirroot . '/mod/quiz/report/responses/report.php');

$cmid = (int)$argv[1];
$out = $argv[2];
$_GET['download'] = 'csv';
$_GET['qtext'] = '1';
$_GET['resp'] = '1';
$_GET['right'] = '0';
foreach (array_slice($argv, 3) as $kv) {
    [$k, $v] = explode('=', $kv, 2);
    $_GET[$k] = $v;
}
\core\session\manager::set_user(get_admin());
$cm = get_coursemodule_from_id('quiz', $cmid, 0, false, MUST_EXIST);
$course = $DB->get_record('course', ['id' => $cm->course], '*', MUST_EXIST);
$quiz = $DB->get_record('quiz', ['id' => $cm->instance], '*', MUST_EXIST);
$quiz->cmid = $cm->id;
$PAGE->set_cm($cm, $course);
$PAGE->set_url('/mod/quiz/report.php', ['id' => $cmid, 'mode' => 'responses']);
$fh = fopen($out, 'w');
ob_start(function($buf) use ($fh) { fwrite($fh, $buf); return ''; }, 1);
register_shutdown_function(function() use ($fh) { while (ob_get_level()) { ob_end_flush(); } fclose($fh); });
$report = new quiz_responses_report();
$report->display($quiz, $cm, $course);
