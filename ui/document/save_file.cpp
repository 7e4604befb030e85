#include "document/save_file.hpp"

#include <QCoreApplication>
#include <QImage>
#include <QSaveFile>

namespace {

bool fail(QString* error, const QString& path, const QString& why) {
  if (error) *error = QCoreApplication::translate("saveFile", "Cannot write %1: %2").arg(path, why);
  return false;
}

// QSaveFile commits a file whose buffered tail could not be written (the flush error in close() is
// not its write error): a full disk left a truncated file. Unbuffered writes report every short
// write, and the flush is checked before the commit.
bool commitChecked(QSaveFile& file, const QString& path, QString* error) {
  if (!file.flush() || file.error() != QFileDevice::NoError) {
    const QString why = file.errorString();
    file.cancelWriting();
    return fail(error, path, why);
  }
  if (!file.commit()) return fail(error, path, file.errorString());
  return true;
}

}  // namespace

bool saveFileAtomically(const QString& path, const QByteArray& bytes, QString* error) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) return fail(error, path, file.errorString());
  if (file.write(bytes) != bytes.size()) {
    const QString why = file.error() != QFileDevice::NoError
                            ? file.errorString()
                            : QCoreApplication::translate("saveFile", "the disk is full or the file too large");
    file.cancelWriting();
    return fail(error, path, why);
  }
  return commitChecked(file, path, error);
}

bool savePngAtomically(const QString& path, const QImage& image, QString* error) {
  if (image.isNull()) return fail(error, path, QCoreApplication::translate("saveFile", "the image is empty"));
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) return fail(error, path, file.errorString());
  if (!image.save(&file, "PNG")) {
    const QString why = file.error() != QFileDevice::NoError
                            ? file.errorString()
                            : QCoreApplication::translate("saveFile", "the PNG encoder failed");
    file.cancelWriting();
    return fail(error, path, why);
  }
  return commitChecked(file, path, error);
}
