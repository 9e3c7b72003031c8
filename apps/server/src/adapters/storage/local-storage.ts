import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isStorageKey, newStorageKey, type FileStorage } from './file-storage.js';

/**
 * Files in one folder outside anything served (by default DATA_DIR/uploads),
 * readable by the server's user alone: the folder 0700, each file 0600.
 * A write lands in a temporary file first and is renamed into place, so a
 * crash never leaves half a document under a real key.
 */
export function createLocalStorage(dir: string): FileStorage {
  const root = path.resolve(dir);
  let ready: Promise<void> | undefined;
  const ensureFolder = () => {
    ready ??= (async () => {
      await fs.mkdir(root, { recursive: true, mode: 0o700 });
      // mkdir leaves an existing folder's mode alone; documents must not be readable by others.
      await fs.chmod(root, 0o700);
    })().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  return {
    async put(bytes) {
      await ensureFolder();
      const key = newStorageKey();
      const temporary = path.join(root, `.${key}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        const file = await fs.open(temporary, 'wx', 0o600);
        try {
          await file.writeFile(bytes);
          await file.sync();
        } finally {
          await file.close();
        }
        await fs.rename(temporary, path.join(root, key));
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
      await syncFolder(root);
      return key;
    },

    async get(key) {
      if (!isStorageKey(key)) return null;
      try {
        return await fs.readFile(path.join(root, key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async delete(key) {
      if (!isStorageKey(key)) return;
      await fs.rm(path.join(root, key), { force: true });
    },
  };
}

/** Makes the rename itself durable, so an acknowledged upload survives a power cut. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
