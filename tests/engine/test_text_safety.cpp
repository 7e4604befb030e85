// Text that comes from files is checked where it is read: names that are not UTF-8 are refused
// with the file and line (URDF, DH, trajectory CSV), and the CLI's JSON output is valid JSON
// whatever bytes reach it. The UTF-8 check itself is tested against the byte ranges of RFC 3629
// (the Unicode standard's table 3-7), written out here independently of the implementation.
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "dynscope/dynscope.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/io/utf8.hpp"

namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s += char(c);
  return s;
}

// The reference decoder: a code point from a well-formed sequence per RFC 3629's grammar,
// enumerated the other way round: encode every scalar value and compare.
std::string encode(char32_t c) {
  std::string s;
  if (c < 0x80) {
    s += char(c);
  } else if (c < 0x800) {
    s += char(0xC0 | (c >> 6)), s += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += char(0xE0 | (c >> 12)), s += char(0x80 | ((c >> 6) & 0x3F)), s += char(0x80 | (c & 0x3F));
  } else {
    s += char(0xF0 | (c >> 18)), s += char(0x80 | ((c >> 12) & 0x3F)), s += char(0x80 | ((c >> 6) & 0x3F)),
        s += char(0x80 | (c & 0x3F));
  }
  return s;
}

// A well-formed JSON document by Qt's strict parser (it rejects invalid UTF-8 and bare control bytes).
bool validJson(const QByteArray& text, QString* why = nullptr) {
  QJsonParseError error;
  QJsonDocument::fromJson(text, &error);
  if (why) *why = error.errorString() + " at " + QString::number(error.offset);
  return error.error == QJsonParseError::NoError;
}

std::string loadError(const std::function<void()>& load) {
  try {
    load();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

class TestTextSafety : public QObject {
  Q_OBJECT

 private slots:
  void utf8AcceptsEveryScalarValue() {
    for (char32_t c = 0; c <= 0x10FFFF; c += (c < 0x3000 ? 1 : 97)) {
      if (c >= 0xD800 && c <= 0xDFFF) continue;  // surrogates are not scalar values
      QVERIFY2(dyn::isValidUtf8(encode(c)), qPrintable(QString::number(uint(c), 16)));
    }
    QVERIFY(dyn::isValidUtf8(encode(0x10FFFF)));
    QVERIFY(dyn::isValidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\xA4\x96"));
  }

  void utf8RefusesIllFormedSequences() {
    const std::pair<const char*, std::string> bad[] = {
        {"Latin-1 e acute", "caf" + bytes({0xE9})},
        {"lone continuation", bytes({0x80})},
        {"overlong slash C0 AF", bytes({0xC0, 0xAF})},
        {"overlong C1", bytes({0xC1, 0xBF})},
        {"overlong three-byte E0 80 AF", bytes({0xE0, 0x80, 0xAF})},
        {"surrogate ED A0 80", bytes({0xED, 0xA0, 0x80})},
        {"overlong four-byte F0 80 80 AF", bytes({0xF0, 0x80, 0x80, 0xAF})},
        {"above U+10FFFF F4 90 80 80", bytes({0xF4, 0x90, 0x80, 0x80})},
        {"F5 lead", bytes({0xF5, 0x80, 0x80, 0x80})},
        {"FF", bytes({0xFF})},
        {"truncated at the end", "ab" + bytes({0xE2, 0x82})},
        {"truncated before ASCII", bytes({0xE2, 0x82, 0x41})},
    };
    for (const auto& [what, text] : bad) {
      size_t at = 99;
      QVERIFY2(!dyn::isValidUtf8(text, &at), what);
      QVERIFY2(at < text.size(), what);
      const std::string clean = dyn::sanitizeUtf8(text);
      QVERIFY2(dyn::isValidUtf8(clean), what);
      QVERIFY2(clean.find("\xEF\xBF\xBD") != std::string::npos, what);
    }
    size_t at = 0;
    QVERIFY(!dyn::isValidUtf8("caf" + bytes({0xE9}), &at));
    QCOMPARE(int(at), 3);
    QCOMPARE(dyn::sanitizeUtf8("caf" + bytes({0xE9}) + "!"), std::string("caf\xEF\xBF\xBD!"));
  }

  void urdfRefusesNamesThatAreNotUtf8() {
    const std::string urdf = "<robot name=\"r\">\n  <link name=\"base\"/>\n  <link name=\"caf" + bytes({0xE9}) +
                             "\"/>\n  <joint name=\"j\" type=\"fixed\"><parent link=\"base\"/><child link=\"caf" +
                             bytes({0xE9}) + "\"/></joint>\n</robot>\n";
    const std::string message = loadError([&] { dyn::parseUrdfString(urdf, "latin1.urdf"); });
    QVERIFY2(message.starts_with("latin1.urdf:3: ") && message.find("<link> name") != std::string::npos &&
                 message.find("not valid UTF-8 (byte 0xE9") != std::string::npos,
             message.c_str());
    QVERIFY2(dyn::isValidUtf8(message), "the message itself is UTF-8");
    // Latin-1 in a comment or in a tag the reader ignores is harmless.
    const std::string ignored = "<robot name=\"r\">\n<!-- Autor: M" + bytes({0xFC}) +
                                "ller -->\n  <link name=\"base\"/>\n  <gazebo><plugin name=\"gr" + bytes({0xFC}) +
                                "n\"/></gazebo>\n</robot>\n";
    QCOMPARE(dyn::parseUrdfString(ignored, "ok.urdf").links.size(), size_t(1));
    // Valid UTF-8 names load.
    const std::string utf8 = "<robot name=\"caf\xC3\xA9\">\n  <link name=\"\xE2\x82\xAC\"/>\n</robot>\n";
    QCOMPARE(dyn::parseUrdfString(utf8, "utf8.urdf").links[0].name, std::string("\xE2\x82\xAC"));
  }

  void dhRefusesLinesThatAreNotUtf8() {
    const std::string dh = "# M" + bytes({0xFC}) + "ller's arm: comments may be anything\nname arm\njoint j" +
                           bytes({0xE9}) + " R a=1 mass=1\n";
    const std::string message = loadError([&] { dyn::parseDhString(dh, "latin1.dh"); });
    QVERIFY2(message.starts_with("latin1.dh:3: ") && message.find("not valid UTF-8") != std::string::npos,
             message.c_str());
    QVERIFY(dyn::isValidUtf8(message));
    QCOMPARE(dyn::buildModel(dyn::parseDhString("# M" + bytes({0xFC}) + "ller\njoint j1 R a=1 mass=1\n", "ok.dh")).nv,
             1);
  }

  void csvRefusesColumnNamesThatAreNotUtf8() {
    std::istringstream in("# trajectory\nt,j" + bytes({0xE9}) + "\n0,1\n");
    const std::string message = loadError([&] { dyn::readCsv(in, "latin1.csv"); });
    QVERIFY2(message.starts_with("latin1.csv:2: ") && message.find("not valid UTF-8") != std::string::npos,
             message.c_str());
    std::istringstream number("t,j1\n0,1" + bytes({0xE9}) + "\n");
    const std::string numberMessage = loadError([&] { dyn::readCsv(number, "n.csv"); });
    QVERIFY2(numberMessage.starts_with("n.csv:2: ") && dyn::isValidUtf8(numberMessage), numberMessage.c_str());
  }

  // The CLI's JSON is valid whatever bytes reach it: a model file whose name is not UTF-8 ends up
  // in the "file" field (names inside the file are refused at load).
  void cliJsonIsValidForAnyFileName() {
    QTemporaryDir dir;
    const QByteArray name = dir.path().toLocal8Bit() + "/arm-" + QByteArray("\xE9\xFF\x01", 3) + ".dh";
    {
      std::ofstream f(name.toStdString());
      f << "name arm\njoint j1 R a=1 mass=1\njoint j2 R a=1 mass=1\n";
    }
    // QProcess would re-encode a QString argument: the shell passes the raw bytes instead.
    QProcess p;
    p.setProgram("/bin/sh");
    p.setArguments(
        {"-c", "exec \"$0\" info \"$(printf '%s/arm-\\351\\377\\001.dh' \"$1\")\"", DYNSCOPE_CLI, dir.path()});
    p.start();
    QVERIFY(p.waitForFinished(60000));
    const QByteArray out = p.readAllStandardOutput();
    QCOMPARE(p.exitCode(), 0);
    QString why;
    QVERIFY2(validJson(out, &why), qPrintable(why + "\n" + QString::fromLatin1(out.left(400))));
    const QJsonDocument doc = QJsonDocument::fromJson(out);
    QVERIFY(doc.object().value("file").toString().contains(QChar(0xFFFD)));
    QCOMPARE(doc.object().value("model").toString(), QString("arm"));
    std::filesystem::remove(name.toStdString());  // QTemporaryDir cannot name it (not UTF-8)
  }
};

QTEST_APPLESS_MAIN(TestTextSafety)
#include "test_text_safety.moc"
