<?php
// Every figure a question's XML embeds in its general feedback (<file> + @@PLUGINFILE@@): is the file
// stored after import (same bytes, its MIME type), and does the rendered question's feedback show it
// (an <img> whose src is the pluginfile URL of that stored file, with the alt text of the XML)?
// Usage: php figure_check.php FILE.xml   (after php ../import_xml.php FILE.xml COURSE)
define('CLI_SCRIPT', true);
require('/work/moodle-check/www/config.php');
require_once($CFG->libdir . '/questionlib.php');
require_once($CFG->dirroot . '/question/engine/lib.php');

$xmlfile = $argv[1];
$imp = json_decode(file_get_contents($xmlfile . '.import.json'), true);
\core\session\manager::set_user(get_admin());
$PAGE->set_context(context_system::instance());
$PAGE->set_url('/question/preview.php');
$coursecontext = context_course::instance($imp['courseid']);
$byidn = [];
foreach ($imp['questions'] as $q) {
    $byidn[$q['idnumber']] = $q['id'];
}
$xml = simplexml_load_file($xmlfile);
$fs = get_file_storage();
$n = ['questions' => 0, 'files' => 0, 'stored' => 0, 'shown' => 0, 'alt' => 0, 'mime' => []];
$bad = [];
foreach ($xml->question as $qx) {
    if ((string)$qx['type'] === 'category' || !count($qx->generalfeedback->file)) {
        continue;
    }
    $n['questions']++;
    $qid = $byidn[(string)$qx->idnumber];
    $quba = question_engine::make_questions_usage_by_activity('core_question_preview', $coursecontext);
    $quba->set_preferred_behaviour('deferredfeedback');
    $question = question_bank::load_question($qid);
    $slot = $quba->add_question($question, $question->defaultmark);
    $quba->start_question($slot);
    $quba->process_action($slot, $quba->get_correct_response($slot));
    $quba->finish_question($slot);
    $options = new question_display_options();
    $options->feedback = question_display_options::VISIBLE;
    $options->generalfeedback = question_display_options::VISIBLE;
    $html = $quba->render_question($slot, $options);
    $text = (string)$qx->generalfeedback->text;
    foreach ($qx->generalfeedback->file as $f) {
        $n['files']++;
        $name = (string)$f['name'];
        $stored = $fs->get_file($question->contextid, 'question', 'generalfeedback', $qid, '/', $name);
        if ($stored && $stored->get_content() === base64_decode((string)$f)) {
            $n['stored']++;
            $n['mime'][$stored->get_mimetype()] = ($n['mime'][$stored->get_mimetype()] ?? 0) + 1;
        } else {
            $bad[] = "$qx->idnumber $name: not stored";
        }
        // the URL Moodle's question engine writes for this file (usage-specific: pluginfile.php/CTX/question/generalfeedback/USAGE/SLOT/QID/NAME)
        $url = preg_quote("/question/generalfeedback/{$quba->get_id()}/$slot/$qid/" . rawurlencode($name), '~');
        if (preg_match('~<img[^>]*src="[^"]*pluginfile\.php/\d+' . $url . '"[^>]*>~', $html, $m)) {
            $n['shown']++;
            preg_match('~alt="' . preg_quote(rawurlencode($name), '~') . '~', '', $dummy);
            preg_match('~@@PLUGINFILE@@/' . preg_quote($name, '~') . '"\s+alt="([^"]*)"~', $text, $a);
            if ($a && strpos($m[0], 'alt="' . $a[1] . '"') !== false) {
                $n['alt']++;
            } else {
                $bad[] = "$qx->idnumber $name: alt text differs";
            }
        } else {
            $bad[] = "$qx->idnumber $name: no <img> with its pluginfile URL in the rendered feedback";
        }
    }
}
echo json_encode($n, JSON_UNESCAPED_SLASHES) . "\n";
foreach (array_slice($bad, 0, 20) as $b) {
    echo "  $b\n";
}
if (!empty($argv[2])) {
    file_put_contents($argv[2], $html);
}
