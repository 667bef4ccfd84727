import {
  cloneElement,
  createContext,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  type Ref,
} from 'react';
import type * as DropdownMenuUi from './dropdown-menu';

type MenuUi = typeof DropdownMenuUi;

/**
 * True while a menu opened from the keyboard before its code had loaded: Radix did not see the key,
 * so `DropdownMenuContent` moves focus to the first item itself, as Radix does for a keyboard open.
 */
export const FocusFirstItemContext = createContext<{ current: boolean } | null>(null);

type TriggerProps = {
  ref?: Ref<HTMLElement>;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
  'data-state'?: 'open' | 'closed';
};

type Props<P extends object> = {
  /** The menu's items (a `DropdownMenuContent`), from a module loaded on first use. */
  load: () => Promise<{ default: ComponentType<P> }>;
  /** Props for the loaded content. */
  props: P;
  /** The button that opens the menu: one element that accepts a ref and event handlers. */
  trigger: ReactElement<TriggerProps>;
};

type Loaded = { ui: MenuUi; Content: ComponentType<never> };
type Opening = 'pointer' | 'keyboard' | null;

/**
 * A Radix dropdown menu whose code (Radix menu, Floating UI, the items) loads on first use: ~35 KB
 * gzipped that the signed-in shell would otherwise download before anyone opens a menu.
 *
 * Until then the trigger is a plain button with the same look and name (`aria-haspopup="menu"`). Hover
 * or focus starts the download; once there, the real Radix menu takes its place (focus kept), so a
 * later click or key is Radix's own. A click, Enter, Space or ArrowDown before the code arrives opens
 * the menu when it does, with focus in it (on the first item from the keyboard), as Radix would.
 */
export function LazyMenu<P extends object>({ load, props, trigger }: Props<P>) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [opening, setOpening] = useState<Opening>(null);
  const pending = useRef<Promise<void> | null>(null);
  const focusFirst = useRef(false);
  const restoreFocus = useRef(false);
  const plainButton = useRef<HTMLElement | null>(null);
  const radixTrigger = useRef<HTMLElement | null>(null);

  const fetchMenu = () => {
    pending.current ??= Promise.all([import('./dropdown-menu'), load()]).then(
      ([ui, content]) => {
        // Replacing the focused plain button must not drop the keyboard user's place.
        restoreFocus.current = document.activeElement === plainButton.current;
        setLoaded({ ui, Content: content.default as ComponentType<never> });
      },
      (error: unknown) => {
        // Offline or a new deploy: let the next try fetch again.
        pending.current = null;
        setOpening(null);
        console.error(error);
      },
    );
  };

  const open = (how: Exclude<Opening, null>) => {
    focusFirst.current = how === 'keyboard';
    setOpening((current) => current ?? how);
    fetchMenu();
  };

  useEffect(() => {
    if (loaded && restoreFocus.current && !opening) radixTrigger.current?.focus();
    restoreFocus.current = false;
  }, [loaded, opening]);

  if (loaded) {
    const { ui } = loaded;
    const Content = loaded.Content as ComponentType<P>;
    return (
      <FocusFirstItemContext.Provider value={focusFirst}>
        <ui.DropdownMenu defaultOpen={opening !== null}>
          <ui.DropdownMenuTrigger asChild>{cloneElement(trigger, { ref: radixTrigger })}</ui.DropdownMenuTrigger>
          <Content {...props} />
        </ui.DropdownMenu>
      </FocusFirstItemContext.Provider>
    );
  }

  return cloneElement(trigger, {
    ref: plainButton,
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    'data-state': 'closed',
    onPointerEnter: fetchMenu,
    onFocus: fetchMenu,
    onPointerDown: (event) => {
      // Radix opens on press, not on click; a plain left press, as Radix does.
      if (event.button !== 0 || event.ctrlKey) return;
      event.preventDefault();
      open('pointer');
    },
    onKeyDown: (event) => {
      if (event.key !== 'Enter' && event.key !== ' ' && event.key !== 'ArrowDown') return;
      event.preventDefault();
      open('keyboard');
    },
    // A click without a press (assistive technology) opens too, like a keyboard open.
    onClick: (event) => {
      if (event.detail === 0 && opening === null) open('keyboard');
    },
  });
}
