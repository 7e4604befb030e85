#include "document/save_file.hpp"

#include <QCoreApplication>
#include <QImage>
#include <QSaveFile>

namespace {

bool fail(QString* error, const QString& path, const QString& why) {
  if (error) *error = QCoreApplication::translate("saveFile", "Cannot write %1: %2").arg(path, why);
  return false;
}

}  // namespace

bool saveFileAtomically(const QString& path, const QByteArray& bytes, QString* error) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return fail(error, path, file.errorString());
  if (file.write(bytes) != bytes.size()) {
    const QString why = file.errorString();
    file.cancelWriting();
    return fail(error, path, why);
  }
  if (!file.commit()) return fail(error, path, file.errorString());
  return true;
}

bool savePngAtomically(const QString& path, const QImage& image, QString* error) {
  if (image.isNull()) return fail(error, path, QCoreApplication::translate("saveFile", "the image is empty"));
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return fail(error, path, file.errorString());
  if (!image.save(&file, "PNG")) {
    const QString why = file.error() != QFileDevice::NoError
                            ? file.errorString()
                            : QCoreApplication::translate("saveFile", "the PNG encoder failed");
    file.cancelWriting();
    return fail(error, path, why);
  }
  if (!file.commit()) return fail(error, path, file.errorString());
  return true;
}
