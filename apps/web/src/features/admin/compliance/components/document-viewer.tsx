import type { AdminDocument } from '@florin/contracts';
import { Anchor, Center, Loader, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useDocumentFile } from '../api/document-file';
import classes from './document-viewer.module.css';

/**
 * Points the elements at an object URL of the blob for as long as they are
 * shown, and revokes it after: the URL lives in the DOM, not in React state,
 * so a remount (StrictMode's included) makes a fresh one.
 */
function useBlobUrl<T extends HTMLElement>(blob: Blob, attach: (element: T, url: string) => void) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const url = URL.createObjectURL(blob);
    attach(element, url);
    return () => URL.revokeObjectURL(url);
  }, [blob, attach]);
  return ref;
}

const attachImage = (element: HTMLAnchorElement, url: string) => {
  element.href = url;
  const image = element.querySelector('img');
  if (image) image.src = url;
};

/** The <object> is made only once its URL exists: an empty one would already ask to load a plugin. */
const attachPdf = (element: HTMLDivElement, url: string) => {
  const object = document.createElement('object');
  object.type = 'application/pdf';
  object.data = url;
  object.className = classes.pdf ?? '';
  object.setAttribute('aria-label', element.dataset.name ?? 'PDF');
  element.querySelector('object')?.remove();
  element.prepend(object);
  const link = element.querySelector('a');
  if (link) link.href = url;
};

function ImageFile({ blob, name }: { blob: Blob; name: string }) {
  const ref = useBlobUrl<HTMLAnchorElement>(blob, attachImage);
  return (
    <a ref={ref} target="_blank" rel="noopener noreferrer" aria-label={`Open ${name} full size`}>
      <img alt={name} className={classes.image} />
    </a>
  );
}

function PdfFile({ blob, name, filename }: { blob: Blob; name: string; filename: string }) {
  const ref = useBlobUrl<HTMLDivElement>(blob, attachPdf);
  return (
    <div ref={ref} data-name={name}>
      <Anchor download={filename} size="sm">
        Download the PDF
      </Anchor>
    </div>
  );
}

/**
 * A customer's document, shown in the page and never run: an image in <img>,
 * a PDF in the browser's viewer from a blob URL (the server refuses PDFs with
 * scripts, and sends every file with a sandbox policy and nosniff).
 */
export function DocumentViewer({ document }: { document: AdminDocument }) {
  const { data: blob, isError } = useDocumentFile(document.id);
  const name = `${document.label}${document.director_name ? ` of ${document.director_name}` : ''}`;

  if (isError) {
    return (
      <Center className={classes.frame}>
        <Text size="sm" c="dimmed">
          The file could not be shown.
        </Text>
      </Center>
    );
  }
  if (!blob) {
    return (
      <Center className={classes.frame}>
        <Loader size="sm" aria-label={`Loading ${name}`} />
      </Center>
    );
  }
  if (document.content_type === 'application/pdf') {
    return <PdfFile blob={blob} name={name} filename={`${document.key}-${document.id}.pdf`} />;
  }
  return <ImageFile blob={blob} name={name} />;
}
